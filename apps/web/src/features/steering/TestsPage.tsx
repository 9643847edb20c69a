import { Link, useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ItemCard } from './ItemCard.tsx';
import { ItemsSection, useItemsPage } from './ItemsSection.tsx';
import type { ItemHandlers } from './items.ts';
import { STATUS_WORDS, useRuns, useStartRun } from './runs.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import { TestForm, useSources } from './TestForm.tsx';
import { type AssistantTest, LIMITS, outcomeLabel, TRIGGER_WORDS } from './types.ts';

/**
 * An assistant's tests (docs/steering.md "Tests", "Test runs"): the questions with what the reply
 * must do, "Run tests", and the latest runs, each leading to its results.
 */
export function TestsPage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const page = useItemsPage<AssistantTest>('tests', id);
  const total = page.query.data?.total ?? 0;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Tests">
        Each test plays the customer’s messages against the assistant as it is now and checks the last reply.
        Tests run by themselves after a change to the instructions, the knowledge, the guidance or the curated
        answers; nothing of a run reaches the inbox or uses credits.
      </SteeringHeader>
      <Runs ws={ws} id={id} manager={manager} hasTests={total > 0} />
      <ItemsSection
        title="Tests"
        limit={LIMITS.tests}
        page={page}
        label="Tests"
        manager={manager}
        empty={{
          title: 'No tests yet',
          manager:
            'Add a question customers ask, with what the reply must say, or make one from a conversation in the inbox.',
          member: 'An owner or admin can add tests to this assistant.',
        }}
        renderItem={(x, handlers) => <TestItem ws={ws} assistantId={id} test={x} handlers={handlers} />}
        renderForm={(editing, onDone) => <TestForm assistantId={id} editing={editing} onDone={onDone} />}
      />
    </section>
  );
}

/** "Run tests" and the latest runs. */
function Runs({
  ws,
  id,
  manager,
  hasTests,
}: {
  ws: string;
  id: string;
  manager: boolean;
  hasTests: boolean;
}) {
  const runs = useRuns(id);
  const start = useStartRun(id);
  const navigate = useNavigate();
  const playing = runs.data?.data.some((r) => r.status === 'running');
  return (
    <div className="card stack st-runs">
      <div className="row">
        <h2>Latest runs</h2>
        {manager && (
          <button
            type="button"
            className="primary"
            disabled={start.isPending || !hasTests}
            onClick={() =>
              start.mutate(undefined, {
                onSuccess: (res) => navigate(`/w/${ws}/assistants/${id}/tests/runs/${res.data.id}`),
              })
            }
          >
            Run tests
          </button>
        )}
      </div>
      <ErrorText error={start.error} />
      {playing && (
        <p role="status" className="muted">
          A run is playing; this list follows it.
        </p>
      )}
      {runs.isPending && <Loading />}
      <ErrorText error={runs.error} />
      {runs.data?.total === 0 && <p className="muted">No runs yet.</p>}
      {runs.data && runs.data.data.length > 0 && (
        <ul className="st-run-list" aria-label="Test runs">
          {runs.data.data.map((r) => (
            <li key={r.id}>
              <Link to={`/w/${ws}/assistants/${id}/tests/runs/${r.id}`}>{formatDateTime(r.startedAt)}</Link>{' '}
              <span className={`badge ${r.status === 'failed' || r.failed > 0 ? 'failed' : 'ready'}`}>
                {r.status === 'running' ? STATUS_WORDS.running : `${r.passed} passed, ${r.failed} failed`}
              </span>{' '}
              <span className="muted">
                {TRIGGER_WORDS[r.trigger]}
                {r.status === 'failed' ? ` · ${STATUS_WORDS.failed}` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TestItem(props: {
  ws: string;
  assistantId: string;
  test: AssistantTest;
  handlers: ItemHandlers | null;
}) {
  const { ws, assistantId, test: x } = props;
  const sources = useSources(assistantId);
  const sourceName = (sid: string) => sources.data?.data.find((s) => s.id === sid)?.name ?? sid;
  return (
    <ItemCard
      kind="tests"
      assistantId={assistantId}
      id={x.id}
      name={x.name}
      handlers={props.handlers}
      confirm={{ question: `Delete the test “${x.name}”?`, label: 'Delete test' }}
    >
      <div className="row st-item-head">
        <strong>
          <Link to={`/w/${ws}/assistants/${assistantId}/tests/${x.id}`}>{x.name}</Link>
        </strong>
        <span className="badge">
          {x.turns.length} {x.turns.length === 1 ? 'message' : 'messages'}
        </span>
      </div>
      <ol className="st-turns" aria-label={`Messages of ${x.name}`}>
        {x.turns.map((t, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the messages are their positions
          <li key={i}>{t.content}</li>
        ))}
      </ol>
      <Expectation test={x} sourceName={sourceName} />
    </ItemCard>
  );
}

/** A test's expectation in words. */
export function Expectation({
  test: x,
  sourceName,
}: {
  test: Pick<AssistantTest, 'expect'>;
  sourceName(id: string): string;
}) {
  const e = x.expect;
  const items: string[] = [];
  if (e.outcome) items.push(`Outcome: ${outcomeLabel(e.outcome)}`);
  if (e.contains?.length) items.push(`Contains: ${e.contains.map((p) => `“${p}”`).join(', ')}`);
  if (e.notContains?.length) items.push(`Does not contain: ${e.notContains.map((p) => `“${p}”`).join(', ')}`);
  if (e.cites?.length) items.push(`Cites: ${e.cites.map(sourceName).join(', ')}`);
  if (items.length === 0) return <p className="muted">Expects nothing yet: any reply passes.</p>;
  return (
    <ul className="st-expect" aria-label="Expectation">
      {items.map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}
