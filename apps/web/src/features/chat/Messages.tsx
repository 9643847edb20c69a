import { useTranslation } from 'react-i18next';
import type { Citation, ToolStep } from '../../api.ts';
import { toolWords } from '../../shell/tool-words.ts';

/** One chat message: text, then its tool steps and its numbered citations. */
export function MessageView(props: {
  author: string;
  content: string;
  citations?: Citation[] | null;
  toolCalls?: ToolStep[] | null;
  streaming?: boolean;
}) {
  const { author: role, content, citations, toolCalls, streaming } = props;
  const { t } = useTranslation('chat');
  const who =
    role === 'user' || role === 'assistant' || role === 'agent' ? t(`who.${role}`) : t('who.system');
  return (
    <li className={`msg ${role}`} aria-busy={streaming || undefined}>
      <span className="who">{who}</span>
      {toolCalls && toolCalls.length > 0 && (
        <ul className="tools" aria-label={t('toolSteps')}>
          {toolCalls.map((step) => (
            // In words; the code name only in the tooltip, for whoever writes the prompt.
            <li key={step.toolCallId} title={step.toolName}>
              {toolWords(step.toolName, step.result === undefined)}
              {step.result === undefined ? '…' : ' ✓'}
            </li>
          ))}
        </ul>
      )}
      <p className="text">{content || (streaming ? '…' : '')}</p>
      {citations && citations.length > 0 && (
        <ol className="citations" aria-label={t('sources')}>
          {citations.map((c) => (
            <li key={`${c.index}-${c.sourceId}`}>
              [{c.index}]{' '}
              {c.url ? (
                <a href={c.url} target="_blank" rel="noreferrer">
                  {c.title}
                </a>
              ) : (
                c.title
              )}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}
