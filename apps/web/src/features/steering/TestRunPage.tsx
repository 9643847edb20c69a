import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { get, type OffsetPage } from '../../api.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { changeOf, statusWords, useRun } from './runs.ts';
import { SteeringHeader } from './shared.tsx';
import { useSources } from './TestForm.tsx';
import { Expectation } from './TestsPage.tsx';
import { type AssistantTest, outcomeLabel, steeringPath, type TestResult, triggerWords } from './types.ts';

/**
 * One test run's results (docs/steering.md "Test runs"): failed tests first, each with the reply
 * beside what was expected and the reasons, and what changed since the previous run. Followed
 * live while it plays.
 */
export function TestRunPage() {
  const { t } = useTranslation('steering');
  const { ws = '', id = '', runId = '' } = useParams();
  const run = useRun(id, runId);
  const sources = useSources(id);
  // The tests as they are now, for each result's expectation (a run keeps only the verdict).
  const tests = useQuery({
    queryKey: ['assistant-tests', id, 'all'],
    queryFn: () => get<OffsetPage<AssistantTest>>(`${steeringPath(id, 'tests')}?limit=100&offset=0`),
  });
  const r = run.data?.data;
  const sourceName = (sid: string) => sources.data?.data.find((s) => s.id === sid)?.name ?? sid;
  // Failed first, then by name; a stable order for the same run.
  const results = [...(r?.results ?? [])].sort(
    (a, b) => Number(a.passed) - Number(b.passed) || a.name.localeCompare(b.name),
  );
  const newlyFailing = results.filter((x) => changeOf(x) === 'newlyFailing').length;
  const fixed = results.filter((x) => changeOf(x) === 'fixed').length;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title={t('run.title')} />
      <p>
        <Link to={`/w/${ws}/assistants/${id}/tests`}>{t('tests.allTests')}</Link>
      </p>
      {run.isPending && <Loading />}
      <ErrorText error={run.error} />
      {r && (
        <>
          <div className="card stack st-summary">
            <p role="status">
              <span
                className={`badge ${r.status === 'failed' ? 'failed' : r.status === 'done' && r.failed === 0 ? 'ready' : ''}`}
              >
                {statusWords(r.status)}
              </span>{' '}
              {r.status === 'running'
                ? t('run.playing')
                : r.status === 'failed'
                  ? t('run.stopped', {
                      error: r.error ?? t('run.couldNotFinish'),
                      passed: r.passed,
                      failed: r.failed,
                    })
                  : t('run.done', { passed: r.passed, failed: r.failed })}
            </p>
            <p className="muted">
              {t('run.started', { trigger: triggerWords(r.trigger), date: formatDateTime(r.startedAt) })}
              {r.finishedAt ? t('run.finished', { date: formatDateTime(r.finishedAt) }) : ''}
            </p>
            {r.status === 'done' && (newlyFailing > 0 || fixed > 0) && (
              <p>{t('run.since', { newlyFailing, fixed })}</p>
            )}
          </div>
          {results.length > 0 && (
            <ul className="list st-results" aria-label={t('run.results')}>
              {results.map((x) => (
                <Result
                  key={x.testId}
                  ws={ws}
                  assistantId={id}
                  result={x}
                  test={tests.data?.data.find((test) => test.id === x.testId)}
                  sourceName={sourceName}
                />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Result(props: {
  ws: string;
  assistantId: string;
  result: TestResult;
  test: AssistantTest | undefined;
  sourceName(id: string): string;
}) {
  const { result: x, test, sourceName } = props;
  const { t } = useTranslation('steering');
  const change = changeOf(x);
  return (
    <li className={`card st-item st-result ${x.passed ? 'passed' : 'not-passed'}`} aria-label={x.name}>
      <div className="row st-item-head">
        <strong>
          {test ? (
            <Link to={`/w/${props.ws}/assistants/${props.assistantId}/tests/${x.testId}`}>{x.name}</Link>
          ) : (
            x.name
          )}
        </strong>
        <span className={`badge ${x.passed ? 'ready' : 'failed'}`}>
          {x.passed ? t('run.passed') : t('run.failed')}
        </span>
        {change && (
          <span className={`badge st-change ${change === 'fixed' ? 'ready' : 'failed'}`}>
            {t(`run.${change}`)}
          </span>
        )}
      </div>
      {x.reasons.length > 0 && (
        <ul className="st-reasons" aria-label={t('run.reasons')}>
          {x.reasons.map((reason) => (
            <li key={reason} className="error">
              {reason}
            </li>
          ))}
        </ul>
      )}
      <div className="st-compare">
        <div>
          <h3>{t('run.reply')}</h3>
          <p className="muted">{outcomeLabel(x.outcome)}</p>
          <p className="st-text st-reply">{x.reply || t('run.noReply')}</p>
          {x.citations.length > 0 && (
            <p className="muted">
              {t('run.cites', {
                sources: [...new Set(x.citations.map((c) => sourceName(c.sourceId)))].join(', '),
              })}
            </p>
          )}
        </div>
        <div>
          <h3>{t('run.expected')}</h3>
          {test ? (
            <Expectation test={test} sourceName={sourceName} />
          ) : (
            <p className="muted">{t('run.deleted')}</p>
          )}
        </div>
      </div>
    </li>
  );
}
