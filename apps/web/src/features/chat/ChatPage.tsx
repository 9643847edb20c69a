import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  type Assistant,
  type Conversation,
  type CursorPage,
  type Data,
  get,
  type Message,
} from '../../api.ts';
import { useWorkspaces } from '../../session.ts';
import { Empty, ErrorText, Loading } from '../../shell/ui.tsx';
import { AssistantNav } from '../assistants/AssistantNav.tsx';
import { ModelNote } from '../assistants/ModelNote.tsx';
import { Composer } from './Composer.tsx';
import { MessageView } from './Messages.tsx';

/** Chat with an assistant (docs/chat.md): conversation list, messages, streamed replies. */
export function ChatPage() {
  const { t } = useTranslation('chat');
  const { ws = '', id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const conversationId = params.get('c') ?? undefined;
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const assistant = useQuery({
    queryKey: ['assistant', id],
    queryFn: () => get<Data<Assistant>>(`/api/assistants/${id}`),
  });
  const conversations = useInfiniteQuery({
    queryKey: ['conversations', id],
    queryFn: ({ pageParam }) =>
      get<CursorPage<Conversation>>(
        `/api/chat/conversations?assistantId=${id}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const list = conversations.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section>
      <h1>{t('title', { name: assistant.data?.data.name ?? t('theAssistant') })}</h1>
      <AssistantNav ws={ws} id={id} />
      <ModelNote ws={ws} />
      <ErrorText error={assistant.error} />
      <div className="chat">
        <aside aria-label={t('conversations')}>
          <button type="button" onClick={() => setParams({})} disabled={!conversationId}>
            {t('newConversation')}
          </button>
          <ErrorText error={conversations.error} />
          {conversations.isSuccess && list.length === 0 && <p className="muted">{t('none')}</p>}
          <ul className="convs">
            {list.map((c) => (
              <li key={c.id}>
                <Link to={`?c=${c.id}`} aria-current={c.id === conversationId ? 'page' : undefined}>
                  {c.title || t('untitled')}
                </Link>
              </li>
            ))}
          </ul>
          {conversations.hasNextPage && (
            <button type="button" onClick={() => conversations.fetchNextPage()}>
              {t('more')}
            </button>
          )}
        </aside>
        <Thread
          key={conversationId ?? 'new'}
          assistantId={id}
          conversationId={conversationId}
          welcome={assistant.data?.data.welcomeMessage ?? null}
          canChat={role !== 'guest'}
          onStarted={(c) => setParams({ c }, { replace: true })}
        />
      </div>
    </section>
  );
}

function Thread(props: {
  assistantId: string;
  conversationId?: string;
  welcome: string | null;
  canChat: boolean;
  onStarted(conversationId: string): void;
}) {
  const { assistantId, conversationId } = props;
  const { t } = useTranslation('chat');
  const qc = useQueryClient();
  const [started, setStarted] = useState<string | undefined>(conversationId);
  const messages = useQuery({
    queryKey: ['messages', started],
    queryFn: () => get<CursorPage<Message>>(`/api/chat/conversations/${started}/messages?limit=100`),
    enabled: Boolean(started),
  });
  const shown = messages.data?.data ?? [];
  return (
    <div className="thread">
      {messages.isPending && started && <Loading />}
      <ErrorText error={messages.error} />
      {!started && (
        <Empty title={props.welcome ?? t('ask')}>
          <p>{t('askText')}</p>
        </Empty>
      )}
      <ol className="messages" aria-label={t('messages')} aria-live="polite">
        {shown.map((m) => (
          <MessageView
            key={m.id}
            author={m.role}
            content={m.content}
            citations={m.citations}
            toolCalls={m.toolCalls}
          />
        ))}
      </ol>
      {props.canChat ? (
        <Composer
          assistantId={assistantId}
          conversationId={started}
          onDone={async (c) => {
            if (!started) {
              setStarted(c);
              props.onStarted(c);
            }
            await qc.invalidateQueries({ queryKey: ['messages', c] });
            await qc.invalidateQueries({ queryKey: ['conversations', assistantId] });
          }}
        />
      ) : (
        <p className="muted">{t('guests')}</p>
      )}
    </div>
  );
}
