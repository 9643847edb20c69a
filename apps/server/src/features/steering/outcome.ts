import type { ReplyOutcome } from '@parley/contract/steering';
import { isNotFoundLine } from '../../providers/llm/responder-lines.ts';

/**
 * The outcome of a model's reply (docs/steering.md "Outcomes"): `handoff` when it handed the
 * conversation over, `declined` when it said it does not know (the offline responder's own
 * sentence, in any language; a remote model's wording is not read), else `answered`.
 */
export function modelOutcome(
  handedOff: boolean,
  text: string,
): Extract<ReplyOutcome, 'answered' | 'declined' | 'handoff'> {
  if (handedOff) return 'handoff';
  return isNotFoundLine(text) ? 'declined' : 'answered';
}
