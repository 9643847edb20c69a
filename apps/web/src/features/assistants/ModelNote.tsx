import type { WorkspaceDetail } from '@parley/contract/api-types';
import { useQuery } from '@tanstack/react-query';
import { type Data, get } from '../../api.ts';

type Provider = WorkspaceDetail['aiProvider'];

/** Where answers come from, and for the offline model how to connect a real one (docs/configuration.md). */
export const MODEL_WORDS: Record<Provider, string> = {
  offline:
    'Answers come from the built-in offline model, which quotes your knowledge rather than writing replies of its own. To use a real model, set AI_PROVIDER on the server (docs/configuration.md, “The AI model”).',
  openai: 'Answers come from the OpenAI-compatible model set on the server (AI_PROVIDER=openai).',
  anthropic: 'Answers come from the Anthropic model set on the server (AI_PROVIDER=anthropic).',
};

/**
 * Says which model answers, where answers are tried: an assistant's Chat page and the widget
 * preview. The server reports it on `GET /api/workspaces/{ws}` as `aiProvider`.
 */
export function ModelNote({ ws }: { ws: string }) {
  const workspace = useQuery({
    queryKey: ['workspace', ws],
    queryFn: () => get<Data<WorkspaceDetail>>(`/api/workspaces/${ws}`),
    enabled: ws !== '',
    staleTime: 60_000,
  });
  const provider = workspace.data?.data.aiProvider;
  if (!provider) return null;
  return (
    <p className="muted model-note" data-testid="model-note">
      {MODEL_WORDS[provider]}
    </p>
  );
}
