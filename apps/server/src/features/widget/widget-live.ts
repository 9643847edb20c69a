/**
 * The live channel of one widget session (lib/fanout.ts): `bound` when its conversation starts,
 * `ended` when it ends. Open event streams (widget-events.routes.ts) listen on it.
 */
export const widgetSessionChannel = (sessionId: string) => `widget-session:${sessionId}`;
