"use strict";
(() => {
  const POLL_MS = 5000, LOAD_TIMEOUT_MS = 10000, REFRESH_TIMEOUT_MS = 90000;
  const tokenField = document.getElementById("admin-token");
  const live = document.getElementById("live");
  // Larder's clock minus this browser's (from the Date of Larder's answers): ages are Larder's.
  let clockOffset = 0;
  let lastETag = null;
  let timer = null;
  // Each region's markup as Larder last sent it: only a region that changed is replaced.
  const served = new Map();
  for (const region of document.querySelectorAll("[data-region]")) {
    served.set(region.dataset.region, region.outerHTML);
  }
  for (const element of document.querySelectorAll("[data-needs-script], #admin")) element.hidden = false;

  function span(seconds) {
    const s = Math.round(Math.abs(seconds));
    if (s < 60) return s + " s";
    if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
    if (s < 86400) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
    return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
  }

  function tick() {
    const now = Date.now() + clockOffset;
    for (const time of document.querySelectorAll("time[data-age]")) {
      const at = Date.parse(time.dateTime);
      if (Number.isNaN(at)) continue;
      let age = time.nextElementSibling;
      if (!age || !age.classList.contains("age")) {
        age = document.createElement("span");
        age.className = "age";
        time.after(age);
      }
      const seconds = (now - at) / 1000;
      const text = Math.abs(seconds) < 1 ? " (now)"
        : seconds > 0 ? " (" + span(seconds) + " ago)" : " (in " + span(seconds) + ")";
      // Most ages read the same from one second to the next ("54 d 10 h ago"): left alone, they cost no layout.
      if (age.textContent !== text) age.textContent = text;
    }
  }

  function clockText() {
    return new Date(Date.now() + clockOffset).toISOString().slice(11, 19) + " UTC";
  }

  function learnClock(response) {
    const date = Date.parse(response.headers.get("Date") || "");
    // The Date has whole seconds: follow it only when it disagrees by more, so ages do not jitter.
    if (!Number.isNaN(date) && Math.abs(date - Date.now() - clockOffset) > 1500) clockOffset = date - Date.now();
  }

  function setLive(text) {
    if (live.textContent !== text) live.textContent = text;
  }

  async function reason(response) {
    try {
      const body = await response.json();
      if (body && body.error && body.error.message) return response.status + ": " + body.error.message;
    } catch (_) {
      // not JSON: the status says enough
    }
    return "HTTP " + response.status;
  }

  async function load(url) {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), LOAD_TIMEOUT_MS);
    try {
      // no-cache: the browser revalidates with If-None-Match, and Larder answers 304 while nothing changed.
      // The page, not the root index JSON a program gets from the same URL (Vary: Accept).
      const response = await fetch(url, { cache: "no-cache", headers: { Accept: "text/html" }, signal: controller.signal });
      learnClock(response);
      if (!response.ok) throw new Error(await reason(response));
      return { etag: response.headers.get("ETag"), html: await response.text() };
    } finally {
      clearTimeout(timeout);
    }
  }

  function swap(html) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    const focused = document.activeElement ? document.activeElement.id : "";
    for (const region of document.querySelectorAll("[data-region]")) {
      const name = region.dataset.region;
      const replacement = fresh.querySelector('[data-region="' + name + '"]');
      if (!replacement || served.get(name) === replacement.outerHTML) continue;
      served.set(name, replacement.outerHTML);
      region.replaceWith(document.importNode(replacement, true));
    }
    const again = focused && document.getElementById(focused);
    if (again && again !== document.activeElement) again.focus();
    tick();
  }

  async function poll() {
    try {
      const page = await load(location.pathname + location.search);
      if (page.etag !== lastETag) {
        lastETag = page.etag;
        swap(page.html);
      }
      setLive("");
    } catch (error) {
      setLive("Larder is not answering (" + error.message + "); the page shows what it said last.");
    }
  }

  function schedule() {
    clearTimeout(timer);
    timer = document.hidden ? null : setTimeout(async () => {
      await poll();
      schedule();
    }, POLL_MS);
  }

  async function choose(form) {
    const url = "/?" + new URLSearchParams(new FormData(form)).toString();
    form.setAttribute("aria-busy", "true");
    try {
      const page = await load(url);
      history.replaceState(null, "", url);
      lastETag = page.etag;
      swap(page.html);
    } catch (error) {
      form.removeAttribute("aria-busy");
      setLive("Could not show that choice (" + error.message + ").");
    }
  }

  const outcomes = {
    not_modified: "the upstream answered 304 Not Modified",
    unchanged: "the upstream sent the same data again",
    updated: "updated",
    regression_refused: "the upstream sent older data, which was refused",
  };

  function plural(count, noun) {
    return count + " " + noun + (count === 1 ? "" : "s");
  }

  function describe(resource, status, answer) {
    if (status === 200 && answer) {
      if (resource === "rates") {
        if (answer.changed) return "Updated: " + plural(answer.days_changed, "day") + " stored; the newest is " + answer.date + ".";
        return "No new rates: the newest day is still " + answer.date + " (" + (outcomes[answer.outcome] || answer.outcome) + ").";
      }
      return "Synced (index " + (answer.index === "not_modified" ? "not modified" : "updated") + "): "
        + answer.added + " added, " + answer.updated + " updated, " + answer.removed + " removed, "
        + answer.unchanged + " unchanged, " + answer.failed + " failed.";
    }
    const message = answer && answer.error ? answer.error.message : "no explanation given";
    if (status === 401) return "Refused (401 Unauthorized): " + message + ". Nothing was refreshed.";
    if (status === 502) return "The upstream failed (502): " + message + ". The cached copy is unchanged.";
    return "Failed (" + status + "): " + message + ".";
  }

  function report(outcome, text, kind) {
    outcome.className = "outcome" + (kind ? " " + kind : "");
    outcome.textContent = text;
  }

  async function refresh(button) {
    if (button.getAttribute("aria-disabled") === "true") return;
    const resource = button.dataset.refresh;
    const outcome = document.getElementById("outcome-" + resource);
    const token = tokenField ? tokenField.value : "";
    if (tokenField && token === "") {
      report(outcome, "Enter the admin token first.", "failed");
      tokenField.focus();
      return;
    }
    // aria-disabled rather than disabled: the button keeps the keyboard focus while it works.
    button.setAttribute("aria-disabled", "true");
    report(outcome, "Refreshing " + resource + "…", "");
    const headers = {};
    if (token !== "") headers.Authorization = "Bearer " + token;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), REFRESH_TIMEOUT_MS);
    try {
      const response = await fetch("/" + resource + "/refresh",
        { method: "POST", headers: headers, cache: "no-store", signal: controller.signal });
      learnClock(response);
      let answer = null;
      try {
        answer = await response.json();
      } catch (_) {
        // not JSON: describe() says so
      }
      report(outcome, describe(resource, response.status, answer) + " (" + clockText() + ")", response.ok ? "ok" : "failed");
    } catch (error) {
      report(outcome, "Larder did not answer (" + error.message + ").", "failed");
    } finally {
      clearTimeout(timeout);
      button.removeAttribute("aria-disabled");
    }
    await poll();
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-refresh]");
    if (button) refresh(button);
  });
  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (form && form.classList.contains("selection")) choose(form);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.classList.contains("selection")) {
      event.preventDefault();
      choose(form);
    } else if (form.id === "admin") {
      event.preventDefault();
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) poll();
    schedule();
  });
  tick();
  setInterval(tick, 1000);
  schedule();
})();
