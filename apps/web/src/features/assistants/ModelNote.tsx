import type { WorkspaceDetail } from '@parley/contract/api-types';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Data, get } from '../../api.ts';

type Provider = WorkspaceDetail['aiProvider'];

/**
 * Where answers come from, and for the offline model how to connect a real one (docs/configuration.md):
 * the assistants catalog's `model.<provider>`. A provider without words fails the typecheck.
 */
const PROVIDERS: Record<Provider, true> = { offline: true, openai: true, anthropic: true };

/**
 * Says which model answers, where answers are tried: an assistant's Chat page and the widget
 * preview. The server reports it on `GET /api/workspaces/{ws}` as `aiProvider`.
 */
export function ModelNote({ ws }: { ws: string }) {
  const { t } = useTranslation('assistants');
  const workspace = useQuery({
    queryKey: ['workspace', ws],
    queryFn: () => get<Data<WorkspaceDetail>>(`/api/workspaces/${ws}`),
    enabled: ws !== '',
    staleTime: 60_000,
  });
  const provider = workspace.data?.data.aiProvider;
  if (!provider || !PROVIDERS[provider]) return null;
  return (
    <p className="muted model-note" data-testid="model-note">
      {t(`model.${provider}`)}
    </p>
  );
}
