// Text from the server (ids, titles, card suits, messages) is data, never markup: every module
// that builds HTML from a template string passes such text through here first.

export const escapeHtml = (value) => String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
