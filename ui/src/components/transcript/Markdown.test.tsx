// Model markdown is untrusted: HTML in it is not run or inserted, `javascript:` links lose their
// target, and images are named, not fetched.
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

describe('Markdown', () => {
  it('runs nothing and loads nothing from model text', () => {
    const text = [
      'Here is <script>window.ran = true</script> a script and <img src="x" onerror="window.ran = true"> an image tag.',
      '',
      '<iframe src="https://evil.example/"></iframe>',
      '',
      '[click me](javascript:window.ran=true) and [data](data:text/html,<script>1</script>) and [docs](https://docs.example/page)',
      '',
      '![tracking pixel](https://tracker.example/p.png?u=1)',
    ].join('\n');
    const { container } = render(<Markdown text={text} />);

    expect(container.querySelector('script, iframe, img, object, embed')).toBeNull();
    for (const element of container.querySelectorAll('*')) {
      for (const attribute of element.getAttributeNames()) expect(attribute.startsWith('on')).toBe(false);
    }
    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
    expect(hrefs.some((href) => /^\s*(javascript|data):/i.test(href))).toBe(false);
    expect(hrefs).toContain('https://docs.example/page');
    expect(container).toHaveTextContent('[image: tracking pixel]');
    expect((window as unknown as { ran?: boolean }).ran).toBeUndefined();
  });
});
