// Shown at the end of the transcript while a turn runs, with the seconds since it started.
import { useEffect, useState } from 'react';

export function WorkingLine() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="working-line" data-testid="working">
      <span className="spinner" aria-hidden="true" />
      Working…
      {seconds > 0 && <span className="dim">{seconds} s · Esc to stop</span>}
    </div>
  );
}
