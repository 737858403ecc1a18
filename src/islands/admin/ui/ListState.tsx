interface Props {
  loading: boolean;
  error: Error | null;
  empty: boolean;
  emptyText: string;
}

/** What a list shows before it has rows: skeletons while loading, the error, or its empty text. */
export function ListState({ loading, error, empty, emptyText }: Props) {
  if (loading) {
    return (
      <div className="mt-4 space-y-3" role="status" aria-label="Loading">
        {[0, 1, 2].map((row) => (
          <div key={row} className="h-16 animate-pulse border-3 border-ink/20 bg-ink/5" />
        ))}
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="mt-4 font-semibold text-signal-dark">
        {error.message}
      </p>
    );
  }
  return empty ? <p className="mt-4 text-slate">{emptyText}</p> : null;
}
