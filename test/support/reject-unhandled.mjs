// Test-only preload (`node --import`): once the command is running, reject a promise nobody handles, as a library
// that forgets to await one does. The delay comes from GROOVE_TEST_REJECT_MS (default 500).
const delay = Number(process.env.GROOVE_TEST_REJECT_MS ?? 500);
setTimeout(() => {
  Promise.reject(new Error('a rejection nobody handled\n  (second line of the message)'));
}, delay).unref();
