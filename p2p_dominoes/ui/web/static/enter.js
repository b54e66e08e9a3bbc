// The first load of the one-time link: keep the session's socket key in this origin's
// localStorage (port-scoped, unlike the cookie), then go to the page without the token.
"use strict";
const meta = document.querySelector('meta[name="p2p-dominoes-key"]');
if (meta && meta.content) localStorage.setItem("p2p-dominoes-key", meta.content);
location.replace("/");
