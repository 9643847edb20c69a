import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { type Assistant, canManage, type Data, get } from './api.ts';
import { AccountPage } from './features/account/AccountPage.tsx';
import { AnalyticsPage } from './features/analytics/AnalyticsPage.tsx';
import { ApiKeysPage } from './features/api-keys/ApiKeysPage.tsx';
import { AssistantEdit } from './features/assistants/AssistantEdit.tsx';
import { AssistantsPage } from './features/assistants/AssistantsPage.tsx';
import { AuthPage } from './features/auth/AuthPage.tsx';
import { BillingPage } from './features/billing/BillingPage.tsx';
import { BusinessHoursPage } from './features/business-hours/BusinessHoursPage.tsx';
import { CannedPage } from './features/canned/CannedPage.tsx';
import { ChatPage } from './features/chat/ChatPage.tsx';
import { ContactsPage } from './features/contacts/ContactsPage.tsx';
import { EmailPage } from './features/email/EmailPage.tsx';
import { AutoAssignmentPage } from './features/inbox/AutoAssignmentPage.tsx';
import { ConversationPage } from './features/inbox/ConversationPage.tsx';
import { InboxPage } from './features/inbox/InboxPage.tsx';
import { AcceptInvitation } from './features/invitations/AcceptInvitation.tsx';
import { KnowledgePage } from './features/knowledge/KnowledgePage.tsx';
import { LabelsPage } from './features/labels/LabelsPage.tsx';
import { MembersPage } from './features/members/MembersPage.tsx';
import { NotificationPreferences } from './features/notifications/NotificationPreferences.tsx';
import { SlaPage } from './features/sla/SlaPage.tsx';
import { SmsPage } from './features/sms/SmsPage.tsx';
import { SsoSettingsPage } from './features/sso/SsoSettingsPage.tsx';
import { SsoTestResult } from './features/sso/SsoTestResult.tsx';
import { AnswersPage } from './features/steering/AnswersPage.tsx';
import { GuidancePage } from './features/steering/GuidancePage.tsx';
import { SuggestionsPage } from './features/steering/SuggestionsPage.tsx';
import { TestPage } from './features/steering/TestPage.tsx';
import { TestRunPage } from './features/steering/TestRunPage.tsx';
import { TestsPage } from './features/steering/TestsPage.tsx';
import { TicketsPage } from './features/tickets/TicketsPage.tsx';
import { hooksPath, type Webhook } from './features/webhooks/types.ts';
import { WebhookDetail } from './features/webhooks/WebhookDetail.tsx';
import { WebhooksPage } from './features/webhooks/WebhooksPage.tsx';
import { WidgetSettings } from './features/widget/WidgetSettings.tsx';
import { CreateWorkspace } from './features/workspaces/CreateWorkspace.tsx';
import { Home, Overview } from './features/workspaces/Overview.tsx';
import type { Resources } from './i18n/resources.ts';
import { useWorkspaces } from './session.ts';

/**
 * Every page of the dashboard, in one table (docs/dashboard.md "Pages, titles and breadcrumbs").
 * The router, the breadcrumbs and the tab's title all come from here. Adding a page is one entry,
 * on one line:
 *
 *   { path: 'w/:ws/inbox', title: 'Inbox', page: InboxPage },
 *
 * - `path`: as React Router matches it, without the leading slash.
 * - `title`: the page's name in English, a key of the shell catalog's `pages`
 *   (apps/web/src/i18n/en/shell.ts), which says it in the user's language. The tab reads `<title> · <names> · Parley`, e.g.
 *   `Inbox · Acme · Parley`; the names are those of the things on the way (the workspace, the
 *   assistant...).
 * - `name`: for a path that names one thing, which thing (a key of NAMES): its breadcrumb shows
 *   that thing's name, and the title of every page under it includes it.
 *
 * A page's breadcrumbs are the entries whose path is a leading part of its own
 * (`w/:ws` › `w/:ws/assistants` › `w/:ws/assistants/:id` › `w/:ws/assistants/:id/knowledge`);
 * pages inside a workspace show them. apps/server/test/browser/dashboard-routes.browser.test.ts
 * walks every entry and checks both.
 */
export type PageRoute = {
  path: string;
  title: keyof Resources['shell']['pages'];
  page: ComponentType;
  name?: keyof typeof NAMES;
};

/** Signed in: the pages inside the shell (shell/Layout.tsx). */
export const ROUTES: PageRoute[] = [
  { path: '', title: 'Workspaces', page: Home },
  { path: 'signin', title: 'Sign in', page: ToHome },
  { path: 'signup', title: 'Sign up', page: ToHome },
  { path: 'workspaces/new', title: 'Create a workspace', page: CreateWorkspace },
  { path: 'invite/:token', title: 'Join a workspace', page: AcceptInvitation },
  { path: 'account', title: 'Account settings', page: AccountPage },
  { path: 'account/notifications', title: 'Notification settings', page: NotificationPreferences },
  { path: 'w/:ws', title: 'Overview', page: Overview, name: 'workspace' },
  { path: 'w/:ws/assistants', title: 'Assistants', page: AssistantsPage },
  { path: 'w/:ws/assistants/new', title: 'New assistant', page: AssistantEdit },
  { path: 'w/:ws/assistants/:id', title: 'Settings', page: AssistantEdit, name: 'assistant' },
  { path: 'w/:ws/assistants/:id/knowledge', title: 'Knowledge', page: KnowledgePage },
  { path: 'w/:ws/assistants/:id/chat', title: 'Chat', page: ChatPage },
  { path: 'w/:ws/assistants/:id/widget', title: 'Website widget', page: WidgetSettings },
  { path: 'w/:ws/assistants/:id/sms', title: 'SMS', page: SmsPage },
  { path: 'w/:ws/assistants/:id/email', title: 'Email', page: EmailPage },
  { path: 'w/:ws/assistants/:id/guidance', title: 'Guidance', page: GuidancePage },
  { path: 'w/:ws/assistants/:id/answers', title: 'Curated answers', page: AnswersPage },
  { path: 'w/:ws/assistants/:id/tests', title: 'Tests', page: TestsPage },
  { path: 'w/:ws/assistants/:id/suggestions', title: 'Suggestions', page: SuggestionsPage },
  { path: 'w/:ws/assistants/:id/tests/:testId', title: 'Test', page: TestPage },
  { path: 'w/:ws/assistants/:id/tests/runs/:runId', title: 'Test run', page: TestRunPage },
  { path: 'w/:ws/inbox', title: 'Inbox', page: InboxPage },
  { path: 'w/:ws/inbox/:id', title: 'Conversation', page: ConversationPage },
  { path: 'w/:ws/contacts', title: 'Contacts', page: ContactsPage },
  { path: 'w/:ws/canned-responses', title: 'Canned responses', page: CannedPage },
  { path: 'w/:ws/labels', title: 'Labels', page: LabelsPage },
  { path: 'w/:ws/business-hours', title: 'Business hours', page: BusinessHoursPage },
  { path: 'w/:ws/sla-policies', title: 'SLA policies', page: SlaPage },
  { path: 'w/:ws/auto-assignment', title: 'Auto-assignment', page: AutoAssignmentPage },
  { path: 'w/:ws/tickets', title: 'Tickets', page: TicketsPage },
  { path: 'w/:ws/analytics', title: 'Analytics', page: AnalyticsPage },
  { path: 'w/:ws/members', title: 'Members', page: MembersPage },
  { path: 'w/:ws/billing', title: 'Billing', page: BillingPage },
  { path: 'w/:ws/api-keys', title: 'API keys', page: ApiKeysPage },
  { path: 'w/:ws/sso', title: 'Single sign-on', page: SsoSettingsPage },
  { path: 'sso/test-result', title: 'Single sign-on test', page: SsoTestResult },
  { path: 'w/:ws/webhooks', title: 'Webhooks', page: WebhooksPage },
  { path: 'w/:ws/webhooks/:id', title: 'Webhook', page: WebhookDetail, name: 'webhook' },
  { path: '*', title: 'Page not found', page: NotFound },
];

/** Signed out: any other address shows the sign-in page. */
export const PUBLIC_ROUTES: PageRoute[] = [
  { path: 'signup', title: 'Sign up', page: SignUp },
  { path: 'invite/:token', title: 'Join a workspace', page: AcceptInvitation },
  { path: '*', title: 'Sign in', page: SignIn },
];

type Params = Record<string, string | undefined>;

/**
 * The name of the thing a path names, once known (undefined while it loads or when it is not
 * found). Hooks: each reads the same query as its page, so the name costs no extra request.
 */
export const NAMES = {
  workspace: (p: Params) => useWorkspaces().data?.data.find((w) => w.id === p.ws)?.name,
  assistant: (p: Params) =>
    useQuery({
      queryKey: ['assistant', p.id],
      queryFn: () => get<Data<Assistant>>(`/api/assistants/${p.id}`),
      enabled: Boolean(p.id),
    }).data?.data.name,
  webhook: (p: Params) => {
    const role = useWorkspaces().data?.data.find((w) => w.id === p.ws)?.role;
    return useQuery({
      queryKey: ['webhook', p.ws, p.id],
      queryFn: () => get<Data<Webhook>>(`${hooksPath(p.ws ?? '')}/${p.id}`),
      // Members may not read webhooks: no request that can only be a 403.
      enabled: Boolean(p.ws && p.id) && canManage(role),
    }).data?.data.url;
  },
} satisfies Record<string, (p: Params) => string | undefined>;

/** The entries on the way to `route` (itself last): those whose path leads to its path. */
export function trailOf(route: PageRoute, table: PageRoute[]): PageRoute[] {
  const parts = route.path.split('/');
  return table
    .filter((r) => {
      const own = r.path.split('/');
      return (
        r.path !== '' && r.path !== '*' && own.length <= parts.length && own.every((s, i) => s === parts[i])
      );
    })
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
}

function ToHome() {
  return <Navigate to="/" replace />;
}

function SignIn() {
  return <AuthPage mode="signin" />;
}

function SignUp() {
  return <AuthPage mode="signup" />;
}

function NotFound() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  // Stripe's Checkout and portal send the browser back to /workspaces/{ws}/billing (the server's
  // return URL, docs/billing.md "Stripe"): that is this dashboard's billing page.
  const billing = /^\/workspaces\/([\w-]+)\/billing\/?$/.exec(pathname);
  if (billing) return <Navigate to={`/w/${billing[1]}/billing${search}`} replace />;
  return (
    <section>
      <h1>{t('pages.Page not found')}</h1>
      <p>
        {/* biome-ignore lint/a11y/useAnchorContent: <Trans> puts the catalog's link text inside. */}
        <Trans t={t} i18nKey="notFound.text" components={{ a: <a href="/" /> }} />
      </p>
    </section>
  );
}
