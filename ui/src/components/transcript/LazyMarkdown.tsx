// Markdown as the window draws it: the renderer (react-markdown, remark-gfm and the highlight.js
// grammars, about a third of the bundle) is loaded with the first text that needs it, not with the
// window, so the first screen paints sooner and an idle window holds less. Until it has loaded, the
// text shows as written.
import { lazy, memo, Suspense } from 'react';

const MarkdownRenderer = lazy(() => import('./Markdown').then((module) => ({ default: module.Markdown })));

export const LazyMarkdown = memo(function LazyMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<p className="markdown-pending">{text}</p>}>
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});
