import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type Data, get, type OffsetPage, post } from '../../api.ts';
import { i18n } from '../../i18n/index.ts';
import { steeringPath, type TestResult, type TestRun } from './types.ts';

/** How often a playing run, and the runs list while one plays, are read again. */
export const POLL_MS = 1000;

/** The latest runs, newest first (docs/steering.md "Test runs"); polled while one plays. */
export function useRuns(assistantId: string, limit = 10) {
  return useQuery({
    queryKey: ['test-runs', assistantId, limit],
    queryFn: () => get<OffsetPage<TestRun>>(`${steeringPath(assistantId, 'test-runs')}?limit=${limit}`),
    refetchInterval: (q) => (q.state.data?.data.some((r) => r.status === 'running') ? POLL_MS : false),
  });
}

/** One run with its results; polled while it plays. */
export function useRun(assistantId: string, runId: string) {
  return useQuery({
    queryKey: ['test-run', assistantId, runId],
    queryFn: () => get<Data<TestRun>>(`${steeringPath(assistantId, 'test-runs')}/${runId}`),
    refetchInterval: (q) => (q.state.data?.data.status === 'running' ? POLL_MS : false),
  });
}

/** `POST .../test-runs` → 202 and the run; a 409 (one already plays) said in words. */
export function useStartRun(assistantId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        return await post<Data<TestRun>>(steeringPath(assistantId, 'test-runs'));
      } catch (err) {
        if (err instanceof ApiError && err.status === 409)
          throw new Error(i18n.t('steering:runs.alreadyPlaying'));
        throw err;
      }
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['test-runs', assistantId] }),
  });
}

/** What a result did since the previous run: null when nothing changed or it is new. */
export function changeOf(r: TestResult): 'newlyFailing' | 'fixed' | null {
  if (r.previouslyPassed === true && !r.passed) return 'newlyFailing';
  if (r.previouslyPassed === false && r.passed) return 'fixed';
  return null;
}

/** A run's status in words ("Running", "Done", "Could not finish"). */
export const statusWords = (status: TestRun['status']) => i18n.t(`steering:runs.status.${status}`);
