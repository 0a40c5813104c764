// The story page is server-rendered. Before the party is over it only waits: check
// again every 15 s and show the story once every table has finished.
const root = document.getElementById("story");
if (root && root.dataset.over === "0") {
  setTimeout(() => window.location.reload(), 15_000);
}
