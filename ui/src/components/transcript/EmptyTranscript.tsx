// What the transcript shows before the first prompt: what the agent can do in the folder.
export function EmptyTranscript({ folder }: { folder: string }) {
  return (
    <div className="transcript-empty">
      <p className="transcript-empty-title">What should we do in {folder}?</p>
      <p className="dim">
        The agent reads, searches and edits files here and runs commands; it asks before anything you have not allowed.
      </p>
    </div>
  );
}
