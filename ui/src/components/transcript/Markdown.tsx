// Assistant markdown: GitHub-flavoured (tables, task lists, strikethrough) with code blocks
// highlighted by highlight.js. Model text is untrusted: raw HTML is shown as text, never run; links
// never navigate the webview away from the app (and `javascript:` ones lose their target); images are
// not fetched (a remote image would tell its host that the page was read) but named with their address.
import { memo } from 'react';
import ReactMarkdown, { type Components, type Options } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import { markdownBlocks } from '../../state/markdownBlocks';

const remarkPlugins: Options['remarkPlugins'] = [remarkGfm];
// Only fenced blocks that name a language are highlighted: guessing is slow while streaming. One
// highlighter serves every render: react-markdown attaches its plugins on each render (each streamed
// delta), and attaching rehype-highlight builds a new highlight.js instance whose grammars compile
// again on first use, so a long answer left megabytes of garbage per second in the web process.
const highlight = rehypeHighlight({ detect: false });
const rehypePlugins: Options['rehypePlugins'] = [() => highlight];

const components: Components = {
  a: ({ href, children }) => (
    <a
      href={href}
      title={href}
      onClick={(event) => event.preventDefault()}
      rel="noreferrer noopener"
    >
      {children}
    </a>
  ),
  img: ({ src, alt }) => (
    <span className="markdown-image" data-testid="markdown-image" title={typeof src === 'string' ? src : undefined}>
      [image{alt ? `: ${alt}` : ''}]
    </span>
  ),
};

/**
 * Markdown text, rendered block by block (see `markdownBlocks`): while an answer streams, only its
 * last block is parsed again; the blocks before it keep their rendering.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <>
      {markdownBlocks(text).map((block, index) => (
        <MarkdownBlock key={index} text={block} />
      ))}
    </>
  );
});

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={rehypePlugins}
      components={components}
    >
      {text}
    </ReactMarkdown>
  );
});
