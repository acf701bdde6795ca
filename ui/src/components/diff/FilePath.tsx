// A file path drawn as a code review tool does: the folder dim, the file name bright.
export function FilePath({ path }: { path: string }) {
  const cut = path.lastIndexOf('/') + 1;
  return (
    <span className="file-path">
      <span className="file-path-dir">{path.slice(0, cut)}</span>
      <span className="file-path-name">{path.slice(cut)}</span>
    </span>
  );
}
