// The floor, live: the server pushes each table's tile when it changes (server-sent
// events); this swaps it in. No build step, no library. The "time since the last round"
// is counted here so the server's tiles only change when the table does.
(function () {
  "use strict";
  function ago(iso) {
    if (!iso) return "none yet";
    var s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
    if (s < 60) return s + " s ago";
    if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s ago";
    return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min ago";
  }
  function tick() {
    document.querySelectorAll(".since").forEach(function (el) {
      el.textContent = ago(el.getAttribute("data-since"));
    });
  }
  tick();
  setInterval(tick, 1000);
  // The floor page follows every tile and the meter; any other page the meter only.
  var tiles = document.getElementById("tiles");
  var meters = document.getElementById("meters");
  var follow = tiles || meters;
  if (!follow || !window.EventSource) return;
  window.floorEvents = 0;
  var source = new EventSource(follow.getAttribute("data-stream"));
  // A page left is kept by the browser for its Back button (bfcache) with its stream open:
  // a browser opens six connections to one server, so the seventh page waited until an old
  // stream ended (50 s). Closed when the page is left; the page reloads if it comes back.
  window.addEventListener("pagehide", function () { source.close(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) location.reload(); });
  source.addEventListener("meter", function (e) {
    if (meters) meters.innerHTML = JSON.parse(e.data).html;
  });
  if (!tiles) return;
  source.addEventListener("tile", function (e) {
    var d = JSON.parse(e.data);
    var old = document.getElementById(d.id);
    var box = document.createElement("div");
    box.innerHTML = d.html.trim();
    var tile = box.firstChild;
    if (old) { old.replaceWith(tile); } else {
      var none = document.getElementById("no-tables");
      if (none) none.remove();
      tiles.appendChild(tile);
    }
    window.floorEvents += 1;
    tick();
  });
  source.addEventListener("gone", function (e) {
    var old = document.getElementById(JSON.parse(e.data).id);
    if (old) old.remove();
  });
  source.addEventListener("alerts", function (e) {
    var box = document.getElementById("open-alerts");
    if (box) box.innerHTML = JSON.parse(e.data).html;
  });
})();
