// A survey's closing time: the server keeps UTC ("2026-12-01T18:00:00Z");
// the page shows and edits it in the admin's local time (datetime-local).

// "2026-12-01T19:00" (local) -> "2026-12-01T18:00:00Z"; '' or invalid -> null.
export function localInputToUtc(value) {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// "2026-12-01T18:00:00Z" -> the datetime-local value in local time.
export function utcToLocalInput(utc) {
  if (!utc) return '';
  const date = new Date(utc);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// Local time and the UTC time the server keeps.
export function describeClosing(utc) {
  const date = new Date(utc);
  if (Number.isNaN(date.getTime())) return utc;
  const local = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `${local} (${utc})`;
}
