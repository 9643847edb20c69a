import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { del, get, type OffsetPage } from '../../api.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { Empty, ErrorText, Loading, Pager } from '../../shell/ui.tsx';
import { ConfirmButton } from '../members/ConfirmButton.tsx';
import { STATUS_WORDS, useRuns, useStartRun } from './runs.ts';
import { SteeringHeader, useManager } from './shared.tsx';
import { TestForm, useSources } from './TestForm.tsx';
import { type AssistantTest, LIMITS, outcomeLabel, steeringPath, TRIGGER_WORDS } from './types.ts';

const LIMIT = 50;

/**
 * An assistant's tests (docs/steering.md "Tests", "Test runs"): the questions with what the reply
 * must do, "Run tests", and the latest runs, each leading to its results.
 */
export function TestsPage() {
  const { ws = '', id = '' } = useParams();
  const { manager } = useManager(ws);
  const [offset, setOffset] = useState(0);
  const [editing, setEditing] = useState<AssistantTest | null>(null);
  const list = useQuery({
    queryKey: ['assistant-tests', id, offset],
    queryFn: () =>
      get<OffsetPage<AssistantTest>>(`${steeringPath(id, 'tests')}?limit=${LIMIT}&offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Tests">
        Each test plays the customer’s messages against the assistant as it is now and checks the last reply.
        Tests run by themselves after a change to the instructions, the knowledge, the guidance or the curated
        answers; nothing of a run reaches the inbox or uses credits.
      </SteeringHeader>
      <Runs ws={ws} id={id} manager={manager} hasTests={Boolean(page && page.total > 0)} />
      <div className="grid st-layout">
        <div>
          <h2>Tests{page && page.total > 0 ? ` (${page.total} of at most ${LIMITS.tests})` : ''}</h2>
          {list.isPending && <Loading />}
          <ErrorText error={list.error} />
          {page?.total === 0 && (
            <Empty title="No tests yet">
              <p>
                {manager
                  ? 'Add a question customers ask, with what the reply must say, or make one from a conversation in the inbox.'
                  : 'An owner or admin can add tests to this assistant.'}
              </p>
            </Empty>
          )}
          {page && page.data.length > 0 && (
            <ul className="list" aria-label="Tests">
              {page.data.map((x) => (
                <TestItem
                  key={x.id}
                  ws={ws}
                  assistantId={id}
                  test={x}
                  manager={manager}
                  onEdit={() => setEditing(x)}
                  onDeleted={() => editing?.id === x.id && setEditing(null)}
                />
              ))}
            </ul>
          )}
          {page && <Pager page={page} onChange={setOffset} />}
        </div>
        {manager && (
          <TestForm
            key={editing?.id ?? 'new'}
            assistantId={id}
            editing={editing}
            onDone={() => setEditing(null)}
          />
        )}
      </div>
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
  manager: boolean;
  onEdit(): void;
  onDeleted(): void;
}) {
  const { ws, assistantId, test: x, manager } = props;
  const qc = useQueryClient();
  const sources = useSources(assistantId);
  const remove = useMutation({
    mutationFn: () => del(`${steeringPath(assistantId, 'tests')}/${x.id}`),
    onSuccess: () => {
      props.onDeleted();
      return qc.invalidateQueries({ queryKey: ['assistant-tests', assistantId] });
    },
  });
  const sourceName = (sid: string) => sources.data?.data.find((s) => s.id === sid)?.name ?? sid;
  return (
    <li className="card st-item" aria-label={x.name}>
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
      {manager && (
        <div className="row st-actions">
          <span />
          <span className="links">
            <button type="button" onClick={props.onEdit} aria-label={`Edit ${x.name}`}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete ${x.name}`}
              question={`Delete the test “${x.name}”?`}
              confirmLabel="Delete test"
              pending={remove.isPending}
              onConfirm={() => remove.mutate()}
            />
          </span>
        </div>
      )}
      <ErrorText error={remove.error} />
    </li>
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
