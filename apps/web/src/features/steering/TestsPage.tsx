import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { ItemCard } from './ItemCard.tsx';
import { SteeringItemsPage } from './ItemsSection.tsx';
import type { ItemHandlers } from './items.ts';
import { statusWords, useRuns, useStartRun } from './runs.ts';
import { TestForm, useSources } from './TestForm.tsx';
import { type AssistantTest, outcomeLabel, triggerWords } from './types.ts';

/**
 * An assistant's tests (docs/steering.md "Tests", "Test runs"): the questions with what the reply
 * must do, "Run tests", and the latest runs, each leading to its results.
 */
export function TestsPage() {
  const { t } = useTranslation('steering');
  return (
    <SteeringItemsPage<AssistantTest>
      kind="tests"
      listTitle={t('tests.tests')}
      between={({ ws, id, manager }, total) => (
        <Runs ws={ws} id={id} manager={manager} hasTests={total > 0} />
      )}
      renderItem={(x, handlers, { ws, id }) => (
        <TestItem ws={ws} assistantId={id} test={x} handlers={handlers} />
      )}
      renderForm={(editing, onDone, { id }) => (
        <TestForm assistantId={id} editing={editing} onDone={onDone} />
      )}
    />
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
  const { t } = useTranslation('steering');
  const runs = useRuns(id);
  const start = useStartRun(id);
  const navigate = useNavigate();
  const playing = runs.data?.data.some((r) => r.status === 'running');
  return (
    <div className="card stack st-runs">
      <div className="row">
        <h2>{t('runs.latest')}</h2>
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
            {t('runs.run')}
          </button>
        )}
      </div>
      <ErrorText error={start.error} />
      {playing && (
        <p role="status" className="muted">
          {t('runs.playing')}
        </p>
      )}
      {runs.isPending && <Loading />}
      <ErrorText error={runs.error} />
      {runs.data?.total === 0 && <p className="muted">{t('runs.none')}</p>}
      {runs.data && runs.data.data.length > 0 && (
        <ul className="st-run-list" aria-label={t('runs.list')}>
          {runs.data.data.map((r) => (
            <li key={r.id}>
              <Link to={`/w/${ws}/assistants/${id}/tests/runs/${r.id}`}>{formatDateTime(r.startedAt)}</Link>{' '}
              <span className={`badge ${r.status === 'failed' || r.failed > 0 ? 'failed' : 'ready'}`}>
                {r.status === 'running'
                  ? statusWords('running')
                  : t('runs.counts', { passed: r.passed, failed: r.failed })}
              </span>{' '}
              <span className="muted">
                {triggerWords(r.trigger)}
                {r.status === 'failed' ? ` · ${statusWords('failed')}` : ''}
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
  const { t } = useTranslation('steering');
  const sources = useSources(assistantId);
  const sourceName = (sid: string) => sources.data?.data.find((s) => s.id === sid)?.name ?? sid;
  return (
    <ItemCard
      kind="tests"
      assistantId={assistantId}
      id={x.id}
      name={x.name}
      handlers={props.handlers}
      confirm={{ question: t('tests.deleteQuestion', { name: x.name }), label: t('tests.deleteConfirm') }}
    >
      <div className="row st-item-head">
        <strong>
          <Link to={`/w/${ws}/assistants/${assistantId}/tests/${x.id}`}>{x.name}</Link>
        </strong>
        <span className="badge">{t('tests.messages', { count: x.turns.length })}</span>
      </div>
      <ol className="st-turns" aria-label={t('tests.messagesOf', { name: x.name })}>
        {x.turns.map((turn, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the messages are their positions
          <li key={i}>{turn.content}</li>
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
  const { t } = useTranslation('steering');
  const e = x.expect;
  const quoted = (phrases: string[]) => phrases.map((phrase) => t('tests.quoted', { phrase })).join(', ');
  const items: string[] = [];
  if (e.outcome) items.push(t('tests.outcome', { outcome: outcomeLabel(e.outcome) }));
  if (e.contains?.length) items.push(t('tests.contains', { phrases: quoted(e.contains) }));
  if (e.notContains?.length) items.push(t('tests.notContains', { phrases: quoted(e.notContains) }));
  if (e.cites?.length) items.push(t('tests.cites', { sources: e.cites.map(sourceName).join(', ') }));
  if (items.length === 0) return <p className="muted">{t('tests.expectsNothing')}</p>;
  return (
    <ul className="st-expect" aria-label={t('tests.expectation')}>
      {items.map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}
