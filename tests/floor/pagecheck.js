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
return found;
