import { useMutation, useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
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
  const { t } = useTranslation('steering');
  const rule = useQuery({
    queryKey: ['guidance-rule', assistantId, ruleId],
    queryFn: () => get<Data<Guidance>>(`${steeringPath(assistantId, 'guidance')}/${ruleId}`),
    enabled: Boolean(ruleId),
    retry: false,
  });
  const name = rule.data?.data.name;
  return (
    <span className="badge st-rule-handoff" data-testid="handoff-rule">
      {name ? t('inbox.handedOffBy', { name }) : t('inbox.handedOff')}
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
  const { t } = useTranslation('steering');
  const make = useMutation({
    mutationFn: () =>
      post<Data<AssistantTest>>(`${steeringPath(assistantId, 'tests')}/from-conversation`, {
        conversationId,
      }),
  });
  const made = make.data?.data;
  return (
    <div className="card stack">
      <h2>{t('inbox.tests')}</h2>
      {made ? (
        <p role="status">
          <Trans
            t={t}
            i18nKey="inbox.made"
            values={{ name: made.name }}
            components={{ a: <Link to={`/w/${ws}/assistants/${assistantId}/tests/${made.id}`} /> }}
          />
        </p>
      ) : (
        <p className="muted">{t('inbox.explain')}</p>
      )}
      <div>
        <button type="button" disabled={make.isPending} onClick={() => make.mutate()}>
          {t('inbox.make')}
        </button>
      </div>
      <ErrorText error={make.error} />
    </div>
  );
}
