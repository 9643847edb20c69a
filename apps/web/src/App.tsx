import { Navigate, Route, Routes } from 'react-router';
import { AccountPage } from './features/account/AccountPage.tsx';
import { ApiKeysPage } from './features/api-keys/ApiKeysPage.tsx';
import { AssistantEdit } from './features/assistants/AssistantEdit.tsx';
import { AssistantsPage } from './features/assistants/AssistantsPage.tsx';
import { AuthPage } from './features/auth/AuthPage.tsx';
import { ChatPage } from './features/chat/ChatPage.tsx';
import { AcceptInvitation } from './features/invitations/AcceptInvitation.tsx';
import { KnowledgePage } from './features/knowledge/KnowledgePage.tsx';
import { MembersPage } from './features/members/MembersPage.tsx';
import { WebhookDetail } from './features/webhooks/WebhookDetail.tsx';
import { WebhooksPage } from './features/webhooks/WebhooksPage.tsx';
import { WidgetSettings } from './features/widget/WidgetSettings.tsx';
import { CreateWorkspace } from './features/workspaces/CreateWorkspace.tsx';
import { Home, Overview } from './features/workspaces/Overview.tsx';
import { useSession } from './session.ts';
import { Layout } from './shell/Layout.tsx';
import { useApplyTheme } from './shell/theme.ts';
import { Loading } from './shell/ui.tsx';

/** Routes (docs/dashboard.md): signed-out pages, then everything else inside the shell. */
export function App() {
  const session = useSession();
  // Signed out: the system's scheme; signed in: the user's preference (docs/dashboard.md).
  useApplyTheme(session.data?.preferences.theme ?? 'system');
  if (session.isPending) return <Loading />;
  if (!session.data) {
    return (
      <Routes>
        <Route path="/signup" element={<AuthPage mode="signup" />} />
        <Route path="/invite/:token" element={<AcceptInvitation />} />
        <Route path="*" element={<AuthPage mode="signin" />} />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route element={<Layout user={session.data} />}>
        <Route index element={<Home />} />
        <Route path="signin" element={<Navigate to="/" replace />} />
        <Route path="signup" element={<Navigate to="/" replace />} />
        <Route path="workspaces/new" element={<CreateWorkspace />} />
        <Route path="invite/:token" element={<AcceptInvitation />} />
        <Route path="account" element={<AccountPage />} />
        <Route path="w/:ws" element={<Overview />} />
        <Route path="w/:ws/assistants" element={<AssistantsPage />} />
        <Route path="w/:ws/assistants/new" element={<AssistantEdit />} />
        <Route path="w/:ws/assistants/:id" element={<AssistantEdit />} />
        <Route path="w/:ws/assistants/:id/knowledge" element={<KnowledgePage />} />
        <Route path="w/:ws/assistants/:id/chat" element={<ChatPage />} />
        <Route path="w/:ws/assistants/:id/widget" element={<WidgetSettings />} />
        <Route path="w/:ws/members" element={<MembersPage />} />
        <Route path="w/:ws/api-keys" element={<ApiKeysPage />} />
        <Route path="w/:ws/webhooks" element={<WebhooksPage />} />
        <Route path="w/:ws/webhooks/:id" element={<WebhookDetail />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        This address does not match any page. <a href="/">Go to the start page</a>.
      </p>
    </section>
  );
}
