/** One figure of the analytics page: its name, its value, and a line of detail under it. */
export function Figure({ term, value, hint }: { term: string; value: string; hint?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
      {hint && <dd className="muted analytics-hint">{hint}</dd>}
    </div>
  );
}
