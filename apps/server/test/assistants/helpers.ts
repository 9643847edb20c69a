/** The factory lives in test/support/factories.ts; this name stays for files that import it from here. */
export { createAssistant } from '../support/factories.ts';
