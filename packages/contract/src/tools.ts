/**
 * The tools an assistant's model may call (docs/chat.md "Tools"), by code name: replies show a
 * tool step by these names, which the dashboard and the widget put in words.
 */
export const TOOL_NAMES = {
  search: 'search_knowledge',
  handoff: 'request_human',
  ticket: 'create_ticket',
  spreadsheet: 'lookup_spreadsheet',
  store: 'lookup_store',
} as const;
