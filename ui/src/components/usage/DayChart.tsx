// The usage view's chart: one SVG bar per UTC day (cost, or tokens when nothing had a price), days without requests
// left as gaps, each bar titled with its day, cost and requests.
import type { UsageRow } from '../../generated/protocol';
import { formatCost } from '../../format';
import { dayBars } from '../../state/usage';

const WIDTH = 600;
const HEIGHT = 120;

export function DayChart({ rows }: { rows: readonly UsageRow[] }) {
  const bars = dayBars(rows, WIDTH, HEIGHT);
  if (bars.length === 0) {
    return (
      <p className="dim" data-testid="usage-chart-empty">
        No model request in this period.
      </p>
    );
  }
  const first = bars[0]?.day ?? '';
  const last = bars[bars.length - 1]?.day ?? '';
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label="Cost by day" data-testid="usage-chart" preserveAspectRatio="none">
        {bars.map((bar) => (
          <rect
            key={bar.day}
            className="usage-bar"
            data-testid="usage-bar"
            data-day={bar.day}
            x={bar.x}
            width={bar.width}
            y={HEIGHT - bar.height}
            height={Math.max(bar.height, 1)}
          >
            <title>{`${bar.day}: ${formatCost(bar.costUsd)}, ${bar.requests} ${bar.requests === 1 ? 'request' : 'requests'}`}</title>
          </rect>
        ))}
      </svg>
      <figcaption className="usage-axis dim">
        <span>{first}</span>
        <span>{last === first ? '' : last}</span>
      </figcaption>
    </figure>
  );
}
