/**
 * The repository functions that run without a workspace id, each with its reason: the one list of
 * docs/decisions/0011-tenant-resolver.md "The tenant filter in queries". Every other exported
 * function of a `*.repo.ts` takes the workspace (a `workspaceId` parameter, or a row or reference
 * that carries one) and puts it in its statement's WHERE; test/conventions/tenant-repos.test.ts
 * fails on a function that does neither, and on an entry here that names no function.
 *
 * Keys are `path under src/#function`. Nothing imports this at run time: it is the reviewed list.
 */
export type PreTenantReason =
  /** Runs before the workspace is known (a provider callback, a public id, a sign-in domain) and returns the workspace it found. */
  | 'finds-workspace'
  /** Finds its row among the caller's own memberships or rows, and returns the row's workspace. */
  | 'caller'
  /** By a secret's hash or a sign-in's own state: what identifies the caller in the first place. */
  | 'credential'
  /** A background job claiming due rows across workspaces, or working on a row it claimed (jobs/catalog.ts). */
  | 'job'
  /** A child table addressed through a parent already loaded inside its workspace. */
  | 'child'
  /** Knowledge chunks, keyed by namespace (the ids of an assistant and its projects). */
  | 'namespace'
  /** A user's own rows (account, sessions, notifications, their export, the workspaces they belong to), not a workspace's. */
  | 'user'
  /** A value unique across all workspaces (a phone number, a slug), checked before it is taken. */
  | 'unique';

export const PRE_TENANT_LOOKUPS: Readonly<Record<string, PreTenantReason>> = {
  // Before the workspace is known: they return it (the row's `workspaceId`).
  'features/sms/sms.repo.ts#findForCallback': 'finds-workspace',
  // The email channel (docs/email.md): its watcher and jobs find the channel by the assistant,
  // forwarding by its token's hash; an address is unique across the server.
  'features/email/email.repo.ts#findChannel': 'finds-workspace',
  'features/email/email.repo.ts#findByForwardToken': 'credential',
  'features/email/email.repo.ts#holderOf': 'unique',
  'features/email/email.repo.ts#isChannelAddress': 'unique',
  'features/email/email.repo.ts#claimInbound': 'job',
  'features/email/email.repo.ts#findInbound': 'job',
  'features/email/email.repo.ts#updateInbound': 'job',
  'features/email/email.repo.ts#claimOutbound': 'job',
  'features/email/email.repo.ts#findOutbound': 'job',
  'features/email/email.repo.ts#updateEmailMessage': 'job',
  // The IMAP supervisor's pass (the email-imap job) reads every enabled IMAP channel, and forgets
  // the place of those disabled.
  'features/email/imap-state.repo.ts#listImapChannels': 'job',
  'features/email/imap-state.repo.ts#forgetUnwatched': 'job',
  'features/sso/sso.repo.ts#connectionForDomain': 'finds-workspace',
  'features/sso/sso.repo.ts#requiringSsoFor': 'finds-workspace',
  'features/sso/sso.repo.ts#findConnectionById': 'finds-workspace',
  'features/widget/widget.repo.ts#findWidgetTarget': 'finds-workspace',
  'features/billing/billing.repo.ts#findByCustomer': 'finds-workspace',
  'features/widget/widget.repo.ts#findSessionByTokenHash': 'finds-workspace',
  'features/auth/credentials.repo.ts#findApiKey': 'finds-workspace',
  // Among the caller's own: the resource resolver's `locate` (http/resources.ts) and the lists of one's workspaces.
  'features/assistants/assistants.repo.ts#findAssistantForUser': 'caller',
  'features/conversations/conversations.repo.ts#locateChatOf': 'caller',
  'features/inbox/inbox.repo.ts#findConversationForUser': 'caller',
  'features/webhooks/webhooks.repo.ts#findWebhookOfMember': 'caller',
  // Credentials and sign-in state.
  'features/auth/credentials.repo.ts#findLiveSession': 'credential',
  'features/auth/credentials.repo.ts#findPersonalToken': 'credential',
  'features/auth/credentials.repo.ts#touchApiKey': 'credential',
  'features/auth/credentials.repo.ts#touchPersonalToken': 'credential',
  'features/workspaces/invitations.repo.ts#findLiveByTokenHash': 'credential',
  'features/widget/widget.repo.ts#anyEnabledWidgetAllows': 'credential',
  'features/widget/widget.repo.ts#findWidgetOrigins': 'credential',
  'features/sso/sso.repo.ts#insertFlow': 'credential',
  'features/sso/sso.repo.ts#takeFlow': 'credential',
  'features/sso/sso.repo.ts#findLiveFlow': 'credential',
  'features/sso/sso.repo.ts#rememberAssertion': 'credential',
  // Jobs: claims across workspaces, then the claimed row by its own id.
  'features/inbox/auto-assign.repo.ts#workspacesWaiting': 'job',
  'features/sla/sla-clocks.repo.ts#claimDueClocks': 'job',
  'features/sms/sms.repo.ts#claimInbound': 'job',
  'features/sms/sms.repo.ts#findInbound': 'job',
  'features/sms/sms.repo.ts#updateInbound': 'job',
  'features/sms/sms.repo.ts#claimOutbound': 'job',
  'features/sms/sms.repo.ts#findOutbound': 'job',
  'features/sms/sms.repo.ts#updateOutbound': 'job',
  'features/sms/sms.repo.ts#lockIdleSessions': 'job',
  // Status callbacks: the assistant found by findForCallback, the send by the provider's id.
  'features/sms/sms.repo.ts#advanceStatus': 'job',
  'features/sms/sms.repo.ts#insertStatusEvent': 'job',
  'features/sms/sms.repo.ts#statusEventsOf': 'job',
  'features/conversations/conversations.repo.ts#messageWithConversation': 'job',
  'features/widget/widget.repo.ts#lockIdleSessions': 'job',
  'features/webhooks/queue.repo.ts#pendingEventsWithWebhooks': 'job',
  'features/webhooks/queue.repo.ts#claimDue': 'job',
  'features/webhooks/queue.repo.ts#finishAttempt': 'job',
  'features/webhooks/queue.repo.ts#finishSuccesses': 'job',
  'features/webhooks/queue.repo.ts#disableWebhook': 'job',
  'features/knowledge/sources/sources.repo.ts#claimSources': 'job',
  'features/knowledge/sources/sources.repo.ts#requeueDueSyncs': 'job',
  'features/knowledge/sources/sources.repo.ts#findSourceById': 'job',
  'features/knowledge/sources/sources.repo.ts#updateSource': 'job',
  'features/knowledge/sources/sources.repo.ts#countOrphanChunks': 'job',
  'features/credits/credits.repo.ts#resetEndedPeriods': 'job',
  'features/billing/billing.repo.ts#claimEndedTrials': 'job',
  'features/billing/billing.repo.ts#claimTrialsToRemind': 'job',
  'features/billing/billing.repo.ts#claimPeriodEnds': 'job',
  'features/sso/sso.repo.ts#deleteExpiredFlows': 'job',
  'features/steering/test-runs.repo.ts#claimRun': 'job',
  // Child tables through a parent loaded inside its workspace.
  'features/assistants/assistants.repo.ts#hasAccessGrant': 'child',
  'features/assistants/assistants.repo.ts#grantAccess': 'child',
  'features/assistants/assistants.repo.ts#revokeAccess': 'child',
  'features/webhooks/queue.repo.ts#addFailure': 'child',
  'features/webhooks/queue.repo.ts#resetFailureStreak': 'child',
  'features/webhooks/webhooks.repo.ts#resetFailures': 'child',
  'features/widget/widget.repo.ts#countMessage': 'child',
  'features/widget/widget.repo.ts#uncountMessage': 'child',
  'features/widget/widget-config.repo.ts#widgetEnabledMap': 'child',
  'features/knowledge/projects/projects.repo.ts#projectCountMap': 'child',
  'features/knowledge/projects/projects.repo.ts#connectProject': 'child',
  'features/knowledge/projects/projects.repo.ts#disconnectProject': 'child',
  'features/knowledge/projects/projects.repo.ts#listConnected': 'child',
  'features/knowledge/sources/sources.repo.ts#insertSourceFile': 'child',
  'features/knowledge/sources/sources.repo.ts#findSourceFileInfo': 'child',
  'features/knowledge/sources/sources.repo.ts#writeSourceFile': 'child',
  'features/knowledge/sources/sources.repo.ts#listRealtimeSources': 'child',
  'features/knowledge/sources/sources.repo.ts#hasRealtimeSources': 'child',
  // Knowledge chunks by namespace (decision 0011; test/knowledge/isolation.test.ts).
  'features/knowledge/projects/projects.repo.ts#namespacesWithVersions': 'namespace',
  'features/knowledge/projects/projects.repo.ts#namespacesJson': 'namespace',
  'features/knowledge/sources/sources.repo.ts#deleteChunks': 'namespace',
  'features/knowledge/sources/sources.repo.ts#bumpNamespace': 'namespace',
  // A user's own rows.
  'features/account/account.repo.ts#updateProfile': 'user',
  'features/account/account.repo.ts#setPasswordHash': 'user',
  'features/account/account.repo.ts#deleteOtherSessions': 'user',
  'features/account/account.repo.ts#listSessions': 'user',
  'features/account/account.repo.ts#listMemberships': 'user',
  'features/account/account.repo.ts#deleteOwnedWorkspaces': 'user',
  'features/account/account.repo.ts#deleteUser': 'user',
  'features/auth/auth.repo.ts#insertUser': 'user',
  'features/auth/auth.repo.ts#findUserByEmail': 'user',
  'features/auth/auth.repo.ts#findUserById': 'user',
  'features/auth/auth.repo.ts#insertSession': 'user',
  'features/auth/auth.repo.ts#deleteSession': 'user',
  'features/auth/auth.repo.ts#findSessionById': 'user',
  'features/auth/auth.repo.ts#insertPersonalToken': 'user',
  'features/auth/auth.repo.ts#listPersonalTokens': 'user',
  'features/auth/auth.repo.ts#deletePersonalToken': 'user',
  'features/notifications/notifications.repo.ts#userByEmail': 'user',
  'features/notifications/notifications.repo.ts#findPreferences': 'user',
  'features/notifications/notifications.repo.ts#savePreferences': 'user',
  'features/notifications/notifications.repo.ts#unreadCount': 'user',
  'features/notifications/notifications.repo.ts#listForUser': 'user',
  'features/notifications/notifications.repo.ts#markRead': 'user',
  'features/notifications/notifications.repo.ts#markAllRead': 'user',
  'features/conversations/conversations.repo.ts#chatsStartedBy': 'user',
  'features/conversations/conversations.repo.ts#messagesOfConversations': 'user',
  'features/conversations/conversations.repo.ts#agentMessagesBy': 'user',
  'features/inbox/inbox.repo.ts#userCard': 'user',
  'features/workspaces/members.repo.ts#findUserEmailAndName': 'user',
  'features/workspaces/workspaces.repo.ts#lockUser': 'user',
  'features/workspaces/tenant.repo.ts#firstMembershipWorkspaceIds': 'user',
  'features/workspaces/workspaces.repo.ts#listForUser': 'user',
  'features/workspaces/workspaces.repo.ts#ownedWorkspacePlans': 'user',
  'features/notifications/notifications.repo.ts#insertNotifications': 'user',
  // Unique across workspaces: a number answers for one assistant; a new workspace's slug.
  'features/sms/sms.repo.ts#holderOf': 'unique',
  'features/workspaces/workspaces.repo.ts#insertWorkspaceIfSlugFree': 'unique',
  'features/workspaces/workspaces.repo.ts#slugsLike': 'unique',
  // A Stripe event id, claimed once before the event's workspace is looked up (docs/billing.md "Stripe webhooks").
  'features/billing/billing.repo.ts#claimStripeEvent': 'unique',
};
