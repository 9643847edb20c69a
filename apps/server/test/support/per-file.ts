import { setClockOffset } from '../../src/lib/clock.ts';

/**
 * Runs before each test file (vitest.config.ts `setupFiles`). Test files share their worker's
 * modules (`isolate: false`), so what one file leaves in a module must not reach the next: the
 * app's clock starts at the real time in every file.
 */
setClockOffset(0);
