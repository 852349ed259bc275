// The admin token lives in sessionStorage: it survives reloads and is shared
// by the dashboard and the creation page, but is gone when the tab closes.
const KEY = 'deniable.adminToken';

export function loadAdminToken() {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';  // storage disabled: the token must be typed again
  }
}

export function saveAdminToken(token) {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: keep working with the in-page value
  }
}
