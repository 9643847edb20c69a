import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { get, type OffsetPage } from '../../api.ts';
import { formatDateTime } from '../../shell/dates.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { changeOf, STATUS_WORDS, useRun } from './runs.ts';
import { SteeringHeader } from './shared.tsx';
import { useSources } from './TestForm.tsx';
import { Expectation } from './TestsPage.tsx';
import { type AssistantTest, outcomeLabel, steeringPath, type TestResult, TRIGGER_WORDS } from './types.ts';

/**
 * One test run's results (docs/steering.md "Test runs"): failed tests first, each with the reply
 * beside what was expected and the reasons, and what changed since the previous run. Followed
 * live while it plays.
 */
export function TestRunPage() {
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
  const newlyFailing = results.filter((x) => changeOf(x) === 'newly failing').length;
  const fixed = results.filter((x) => changeOf(x) === 'fixed').length;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title="Test run" />
      <p>
        <Link to={`/w/${ws}/assistants/${id}/tests`}>All tests and runs</Link>
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
                {STATUS_WORDS[r.status]}
              </span>{' '}
              {r.status === 'running'
                ? 'The tests are playing; the results appear when the run is done.'
                : r.status === 'failed'
                  ? `${r.error ?? 'The run could not finish.'} (${r.passed} passed, ${r.failed} failed before it stopped.)`
                  : `${r.passed} passed, ${r.failed} failed.`}
            </p>
            <p className="muted">
              {TRIGGER_WORDS[r.trigger]} · started {formatDateTime(r.startedAt)}
              {r.finishedAt ? ` · finished ${formatDateTime(r.finishedAt)}` : ''}
            </p>
            {r.status === 'done' && (newlyFailing > 0 || fixed > 0) && (
              <p>
                Since the previous run: {newlyFailing} newly failing, {fixed} fixed.
              </p>
            )}
          </div>
          {results.length > 0 && (
            <ul className="list st-results" aria-label="Results">
              {results.map((x) => (
                <Result
                  key={x.testId}
                  ws={ws}
                  assistantId={id}
                  result={x}
                  test={tests.data?.data.find((t) => t.id === x.testId)}
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
        <span className={`badge ${x.passed ? 'ready' : 'failed'}`}>{x.passed ? 'passed' : 'failed'}</span>
        {change && (
          <span className={`badge st-change ${change === 'fixed' ? 'ready' : 'failed'}`}>{change}</span>
        )}
      </div>
      {x.reasons.length > 0 && (
        <ul className="st-reasons" aria-label="Reasons">
          {x.reasons.map((reason) => (
            <li key={reason} className="error">
              {reason}
            </li>
          ))}
        </ul>
      )}
      <div className="st-compare">
        <div>
          <h3>Reply</h3>
          <p className="muted">{outcomeLabel(x.outcome)}</p>
          <p className="st-text st-reply">{x.reply || '(no reply)'}</p>
          {x.citations.length > 0 && (
            <p className="muted">
              Cites: {[...new Set(x.citations.map((c) => sourceName(c.sourceId)))].join(', ')}
            </p>
          )}
        </div>
        <div>
          <h3>Expected</h3>
          {test ? (
            <Expectation test={test} sourceName={sourceName} />
          ) : (
            <p className="muted">The test has been deleted since.</p>
          )}
        </div>
      </div>
    </li>
  );
}
