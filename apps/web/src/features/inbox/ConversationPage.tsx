import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type CursorPage, canManage, type Data, get, post } from '../../api.ts';
import { languageName } from '../../i18n/format.ts';
import { i18n } from '../../i18n/index.ts';
import { useSession, useWorkspaces } from '../../session.ts';
import { ErrorText, Loading } from '../../shell/ui.tsx';
import { LabelChips } from '../labels/LabelChips.tsx';
import { ConversationSla } from '../sla/ConversationSla.tsx';
import { MakeTest, RuleHandoff } from '../steering/InboxSteering.tsx';
import { Assign } from './Assign.tsx';
import { CannedPicker } from './CannedPicker.tsx';
import { ConversationLabels } from './ConversationLabels.tsx';
import { ContactCard, Tickets } from './ConversationSide.tsx';
import { CsatRating } from './CsatRating.tsx';
import { nameOf, useAssistants, useMembers } from './directory.ts';
import { useInboxStream } from './live.ts';
import { MessageItem } from './MessageItem.tsx';
import { useReplyTranslate } from './ReplyTranslate.tsx';
import {
  CHANNEL_WORDS,
  closedWords,
  type InboxConversation,
  type InboxMessage,
  inboxPath,
  statusWords,
  uniqueById,
  when,
} from './types.ts';
import { markSeen } from './unread.ts';
import { WithheldDraft } from './WithheldDraft.tsx';
import '../contacts/crm.css';
import './inbox.css';

/**
 * One conversation of the inbox (docs/dashboard.md "Inbox"): its messages with who wrote them,
 * the AI's sources and tool steps; reply, take over, give back to the AI, close, assign, and a
 * ticket from it. New messages and changes arrive live. Guests read only: nothing is offered that
 * the API would refuse them.
 */
export function ConversationPage() {
  const { t } = useTranslation('inbox');
  const { ws = '', id = '' } = useParams();
  const role = useWorkspaces().data?.data.find((w) => w.id === ws)?.role;
  const canAnswer = role !== undefined && role !== 'guest';
  const me = useSession().data?.id;
  const qc = useQueryClient();
  const members = useMembers(ws);
  const assistants = useAssistants(ws);
  const one = `${inboxPath}/${id}`;
  const conversation = useQuery({
    queryKey: ['inbox-conversation', id],
    queryFn: () => get<Data<InboxConversation>>(`${one}?workspaceId=${ws}`),
  });
  const messages = useInfiniteQuery({
    queryKey: ['inbox-messages', id],
    queryFn: ({ pageParam }) =>
      get<CursorPage<InboxMessage>>(
        `${one}/messages?workspaceId=${ws}&limit=100${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore ? (last.nextCursor ?? undefined) : undefined),
  });
  const c = conversation.data?.data;
  // Having it open is reading it: every message so far counts as seen (unread.ts).
  useEffect(() => {
    if (me && c) markSeen(me, c.id, c.messageCount);
  }, [me, c]);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['inbox-conversation', id] });
    void qc.invalidateQueries({ queryKey: ['inbox-messages', id] });
    void qc.invalidateQueries({ queryKey: ['inbox', ws] });
  };
  useInboxStream(ws, (e) => {
    if (e.type === 'ready') refresh();
    else if (e.type === 'message.created' && e.conversationId === id) refresh();
    else if ('conversation' in e && e.conversation.id === id) {
      qc.setQueryData<Data<InboxConversation>>(['inbox-conversation', id], (old) =>
        old ? { data: { ...old.data, ...e.conversation } } : old,
      );
    }
  });
  const list = uniqueById(messages.data?.pages.flatMap((p) => p.data) ?? []);
  const [reply, setReply] = useState('');

  if (conversation.isPending) return <Loading />;
  if (!c) {
    return (
      <section>
        <h1>{t('conversation.title')}</h1>
        <ErrorText error={conversation.error} />
        <p>
          <Link to={`/w/${ws}/inbox`}>{t('conversation.back')}</Link>
        </p>
      </section>
    );
  }
  const assistant =
    assistants.data?.data.find((a) => a.id === c.assistantId)?.name ?? t('conversation.assistant');
  const assignee = nameOf(members.data?.data, c.assigneeId);
  return (
    <section className="conversation">
      <h1>{c.title || t('list.untitled')}</h1>
      <p className="conv-facts">
        <span className={`badge status-${c.status}`} data-testid="conversation-status">
          {statusWords(c)}
        </span>{' '}
        {c.handoffReason === 'rule' && (
          <>
            <RuleHandoff assistantId={c.assistantId} ruleId={c.handoffRuleId} />{' '}
          </>
        )}
        <span className="muted">
          {CHANNEL_WORDS[c.channel]} · {c.language ? `${languageName(c.language, i18n.language)} · ` : ''}
          {assistant} · {t('conversation.started', { when: when(c.createdAt) })}
          {c.endedAt && c.status === 'closed'
            ? ` · ${t('conversation.closedAt', { when: when(c.endedAt) })}`
            : ''}
        </span>{' '}
        <LabelChips labels={c.labels} />
      </p>
      <div className="conv-layout">
        <div className="conv-thread">
          <ErrorText error={messages.error} />
          <ol className="messages" aria-label={t('conversation.messages')} aria-live="polite">
            {list.map((m) => (
              <MessageItem
                key={m.id}
                message={m}
                channel={c.channel}
                draft={
                  m.withheld && (
                    <WithheldDraft
                      ws={ws}
                      conversation={c}
                      message={m}
                      canAnswer={canAnswer}
                      onEdit={setReply}
                      onSent={refresh}
                    />
                  )
                }
              />
            ))}
          </ol>
          {messages.hasNextPage && (
            <button
              type="button"
              onClick={() => messages.fetchNextPage()}
              disabled={messages.isFetchingNextPage}
            >
              {t('conversation.later')}
            </button>
          )}
          {canAnswer ? (
            <ReplyBox ws={ws} conversation={c} text={reply} setText={setReply} onSent={refresh} />
          ) : (
            <p className="muted">{t('conversation.guests')}</p>
          )}
        </div>
        <aside className="conv-side" aria-label={t('conversation.side')}>
          <div className="card stack">
            <h2>{t('conversation.whoAnswers')}</h2>
            <p>
              {c.status === 'open' && t('conversation.aiAnswers')}
              {c.status === 'handoff' &&
                (assignee
                  ? c.assigneeId === me
                    ? t('conversation.youAnswer')
                    : t('conversation.personAnswers', { name: assignee })
                  : t('conversation.nobodyYet'))}
              {c.status === 'closed' && closedWords(c.channel)}
            </p>
            {canAnswer && <Actions ws={ws} conversation={c} onChanged={refresh} />}
            <Assign ws={ws} conversation={c} canAnswer={canAnswer} onChanged={refresh} />
          </div>
          <ConversationSla ws={ws} conversation={c} />
          <ConversationLabels ws={ws} conversation={c} canAnswer={canAnswer} />
          <CsatRating conversation={c} />
          {c.contactId && <ContactCard ws={ws} contactId={c.contactId} />}
          <Tickets ws={ws} conversation={c} canAnswer={canAnswer} />
          {canManage(role) && <MakeTest ws={ws} assistantId={c.assistantId} conversationId={c.id} />}
        </aside>
      </div>
    </section>
  );
}

/** Take over, release to the AI, close: each answers the conversation as it now is. */
function Actions({
  ws,
  conversation: c,
  onChanged,
}: {
  ws: string;
  conversation: InboxConversation;
  onChanged(): void;
}) {
  const { t } = useTranslation('inbox');
  const qc = useQueryClient();
  const act = useMutation({
    mutationFn: (what: 'handoff' | 'release' | 'close') =>
      post<Data<InboxConversation>>(`${inboxPath}/${c.id}/${what}?workspaceId=${ws}`),
    onSuccess: (res) => {
      qc.setQueryData(['inbox-conversation', c.id], res);
      onChanged();
    },
  });
  return (
    <>
      <div className="row conv-actions">
        {(c.status === 'open' || (c.status === 'handoff' && !c.assigneeId)) && (
          <button
            type="button"
            className="primary"
            disabled={act.isPending}
            onClick={() => act.mutate('handoff')}
          >
            {t('conversation.takeOver')}
          </button>
        )}
        {c.status === 'handoff' && (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('release')}>
            {t('conversation.release')}
          </button>
        )}
        {c.status !== 'closed' && (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('close')}>
            {t('conversation.close')}
          </button>
        )}
      </div>
      <ErrorText error={act.error} />
    </>
  );
}

function ReplyBox({
  ws,
  conversation: c,
  text,
  setText,
  onSent,
}: {
  ws: string;
  conversation: InboxConversation;
  /** The reply being written, held by the page so a withheld draft can be put here to edit. */
  text: string;
  setText(text: string): void;
  onSent(): void;
}) {
  const { t } = useTranslation('inbox');
  const translate = useReplyTranslate(ws, c);
  const send = useMutation({
    mutationFn: (content: string) =>
      post<Data<InboxMessage>>(`${inboxPath}/${c.id}/messages?workspaceId=${ws}`, {
        content,
        ...translate.body,
      }),
    onSuccess: () => {
      setText('');
      onSent();
    },
  });
  if (c.status === 'closed') {
    return <p className="muted">{t('reply.closed')}</p>;
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) send.mutate(text.trim());
  };
  return (
    <form className="card stack reply" onSubmit={onSubmit} aria-label={t('reply.form')}>
      <label htmlFor="reply-text" id="reply-text-label">
        {t('reply.label')}
      </label>
      <CannedPicker
        id="reply-text"
        labelId="reply-text-label"
        ws={ws}
        conversationId={c.id}
        text={text}
        setText={setText}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) onSubmit(e);
        }}
      />
      {translate.control}
      {c.status === 'open' && <p className="muted">{t('reply.takesOver')}</p>}
      <ErrorText error={send.error} />
      <div>
        <button type="submit" className="primary" disabled={send.isPending || !text.trim()}>
          {t('reply.send')}
        </button>
      </div>
    </form>
  );
}
