import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { type Data, get } from '../../api.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { SteeringHeader, useManager } from './shared.tsx';
import { TestForm, useSources } from './TestForm.tsx';
import { Expectation } from './TestsPage.tsx';
import { type AssistantTest, steeringPath } from './types.ts';

/**
 * One test (docs/steering.md "Tests"), where "Make a test from this conversation" in the inbox
 * leads: owners and admins edit it, others read it.
 */
export function TestPage() {
  const { ws = '', id = '', testId = '' } = useParams();
  const { manager } = useManager(ws);
  const { t } = useTranslation('steering');
  const navigate = useNavigate();
  const sources = useSources(id);
  const test = useQuery({
    queryKey: ['assistant-test', id, testId],
    queryFn: () => get<Data<AssistantTest>>(`${steeringPath(id, 'tests')}/${testId}`),
  });
  const x = test.data?.data;
  const back = `/w/${ws}/assistants/${id}/tests`;
  return (
    <section>
      <SteeringHeader ws={ws} id={id} title={t('test.title')} />
      <p>
        <Link to={back}>{t('tests.allTests')}</Link>
      </p>
      {test.isPending && <Loading />}
      <ErrorText error={test.error} />
      {x && manager && (
        <TestForm key={x.updatedAt} assistantId={id} editing={x} onDone={() => navigate(back)} />
      )}
      {x && !manager && (
        <div className="card stack">
          <h2>{x.name}</h2>
          <ol className="st-turns" aria-label={t('tests.messagesLabel')}>
            {x.turns.map((turn, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the messages are their positions
              <li key={i}>{turn.content}</li>
            ))}
          </ol>
          <Expectation
            test={x}
            sourceName={(sid) => sources.data?.data.find((s) => s.id === sid)?.name ?? sid}
          />
        </div>
      )}
    </section>
  );
}
