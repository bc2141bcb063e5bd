/** Shown where a core function this view needs is not part of the build yet: no invented numbers. */
export function Unavailable({ title, needs }: { title: string; needs: string }) {
  return (
    <div className="view" data-testid="unavailable">
      <h1>{title}</h1>
      <p className="muted">This view needs {needs}, which this build does not have yet. Nothing is shown rather than guessed values.</p>
    </div>
  );
}
