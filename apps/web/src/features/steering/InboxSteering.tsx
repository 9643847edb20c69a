import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Data, get, post } from '../../api.ts';
import { ErrorText } from '../../shell/ui.tsx';
import { type AssistantTest, type Guidance, steeringPath } from './types.ts';

/**
 * "Handed off by rule: {name}" for a conversation a guidance rule gave to a person
 * (docs/steering.md "Guidance rules"); "Handed off by rule" when the rule cannot be read (deleted,
 * or the assistant is not the reader's to see).
 */
export function RuleHandoff(props: { assistantId: string; ruleId: string | null }) {
  const { assistantId, ruleId } = props;
  const rule = useQuery({
    queryKey: ['guidance-rule', assistantId, ruleId],
    queryFn: () => get<Data<Guidance>>(`${steeringPath(assistantId, 'guidance')}/${ruleId}`),
    enabled: Boolean(ruleId),
    retry: false,
  });
  const name = rule.data?.data.name;
  return (
    <span className="badge st-rule-handoff" data-testid="handoff-rule">
      {name ? `Handed off by rule: ${name}` : 'Handed off by rule'}
    </span>
  );
}

/**
 * "Make a test from this conversation" (docs/steering.md "Tests"): its customer messages become a
 * new test of the assistant, with the reply they got as the starting expectation. Owners and
 * admins only, as the API allows.
 */
export function MakeTest(props: { ws: string; assistantId: string; conversationId: string }) {
  const { ws, assistantId, conversationId } = props;
  const make = useMutation({
    mutationFn: () =>
      post<Data<AssistantTest>>(`${steeringPath(assistantId, 'tests')}/from-conversation`, {
        conversationId,
      }),
  });
  const made = make.data?.data;
  return (
    <div className="card stack">
      <h2>Tests</h2>
      {made ? (
        <p role="status">
          Test made: <Link to={`/w/${ws}/assistants/${assistantId}/tests/${made.id}`}>{made.name}</Link>.
          Check what it expects before the next run.
        </p>
      ) : (
        <p className="muted">
          The customer’s messages become a test of the assistant, expecting the reply they got.
        </p>
      )}
      <div>
        <button type="button" disabled={make.isPending} onClick={() => make.mutate()}>
          Make a test from this conversation
        </button>
      </div>
      <ErrorText error={make.error} />
    </div>
  );
}
