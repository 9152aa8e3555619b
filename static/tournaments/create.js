/* The new-tournament page: the web address follows the name as it is typed, until the
 * organiser types an address of his own. The server makes the same from the name when the
 * field is left empty (tournaments.services.free_slug), so this is only a preview. */
"use strict";

(() => {
  const name = document.getElementById("id_name");
  const slug = document.getElementById("id_slug");
  if (!name || !slug) return;
  let own = slug.value !== "";
  const slugify = (text) => text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .toLowerCase().replace(/[^a-z0-9\s-]/g, "").trim().replace(/[\s-]+/g, "-").slice(0, 40)
    .replace(/-+$/, "");
  name.addEventListener("input", () => {
    if (!own) slug.value = slugify(name.value);
  });
  slug.addEventListener("input", () => {
    own = slug.value !== "";
  });
})();
