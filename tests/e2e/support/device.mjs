// The pages remember things on the device (localStorage, shared by every tab
// of a browser profile): the survey page a survey answered and a prepared
// report, the builder its draft. A test that needs a fresh device clears it.
export async function forgetDevice(page) {
  await page.evaluate(() => localStorage.clear());
  await page.reload();
}
