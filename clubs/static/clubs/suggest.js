// The link page's member search: the suggestion fragment is fetched as the organiser types;
// picking a member fills the first empty member-number field.
(function () {
  "use strict";
  var form = document.getElementById("link-form");
  var search = document.getElementById("member-search");
  var found = document.getElementById("member-found");
  if (!form || !search || !found) return;
  var timer = null;
  function lookUp() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var url = form.dataset.suggest + "?q=" + encodeURIComponent(search.value);
      fetch(url, { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : ""; })
        .then(function (html) { found.innerHTML = html; });
    }, 200);
  }
  search.addEventListener("input", lookUp);
  // Typed before this script ran (it runs once the page is read), or put back by the browser.
  if (search.value) lookUp();
  found.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-number]");
    if (!button) return;
    var fields = [document.getElementById("id_player1"), document.getElementById("id_player2")];
    var empty = fields.filter(function (field) { return field && !field.value; })[0] || fields[0];
    empty.value = button.dataset.number;
    search.value = "";
    found.innerHTML = "";
  });
})();
