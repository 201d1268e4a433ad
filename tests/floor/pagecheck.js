// The floor's screen check in the browser (tests/floor/pagecheck.py): the page's width against
// the screen's, then each element that sticks out of the screen or cuts its own text. An element
// inside one already reported is left out: one problem, one line.
const W = window.innerWidth, found = [];
const page = document.scrollingElement.scrollWidth;
if (page > W) found.push(`the page is ${page} px wide on a ${W} px screen (it scrolls sideways)`);
const said = [];
function name(el) {
  const text = (el.innerText || el.value || '').trim().replace(/\s+/g, ' ').slice(0, 50);
  return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
         (el.classList.length ? '.' + [...el.classList].join('.') : '') + (text ? ` "${text}"` : '');
}
for (const el of document.body.querySelectorAll('*')) {
  if (said.some(p => p.contains(el))) continue;
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility === 'hidden' || el.closest('[hidden]')) continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) continue;
  if (r.right > W + 1 || r.left < -1) {
    found.push(`${name(el)} sticks out of the screen (${Math.round(r.left)} to ${Math.round(r.right)} px of ${W})`);
    said.push(el);
    continue;
  }
  if (['INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'IMG', 'HTML', 'BODY'].includes(el.tagName)) continue;
  const clips = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
  if (clips && el.scrollWidth > el.clientWidth + 1 && el.innerText.trim()) {
    found.push(`${name(el)} cuts its text (${el.scrollWidth} px in ${el.clientWidth})`);
    said.push(el);
  }
}
// Headings, column names and the labels a phone shows in a table's cards begin with a capital,
// as the pit window's do (a page's own lower-case heading reads as a fragment).
const small = /^[a-z]/;
for (const el of document.body.querySelectorAll('h1, h2, h3, caption, th')) {
  const t = el.textContent.trim();
  if (small.test(t)) found.push(`${name(el)} begins with a small letter`);
}
const labels = new Set([...document.body.querySelectorAll('td[data-label]')]
  .map(el => el.getAttribute('data-label')).filter(t => small.test(t)));
for (const t of labels) found.push(`the label "${t}" begins with a small letter`);
return found;
