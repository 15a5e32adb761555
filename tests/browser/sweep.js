// What a person sees wrong on a page, measured (tests/browser/test_sweep.py): evaluated in the
// page with the page's size, medium and kind, it returns each defect as [what, where, detail].
// docs/decisions/screens.md says what each check is for.
(options) => {
  const found = [];
  const seen = new Set();
  const say = (what, element, detail) => {
    const where = describe(element);
    const key = `${what} ${where}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push([what, where, detail]);
  };
  function describe(element) {
    if (!element || element === document) return "the document";
    let name = element.tagName.toLowerCase();
    if (element.id) name += `#${element.id}`;
    const classes = [...element.classList].slice(0, 3);
    if (classes.length) name += `.${classes.join(".")}`;
    const text = (element.innerText || element.textContent || "").trim().replace(/\s+/g, " ");
    return text ? `${name} "${text.slice(0, 48)}"` : name;
  }
  const shown = (element) => {
    const style = getComputedStyle(element);
    if (style.display === "none" || style.visibility === "hidden") return false;
    const box = element.getBoundingClientRect();
    return box.width > 2 && box.height > 2;  // a visually hidden label is 1 px: for readers
  };
  const inSvg = (element) => element instanceof SVGElement;
  const width = window.innerWidth;
  const height = window.innerHeight;
  const root = document.documentElement;
  const range = document.createRange();

  // The page wider than its screen (or its sheet of paper): a phone zooms it out.
  if (root.scrollWidth > width + 1) {
    const widest = [...document.body.querySelectorAll("*")]
      .filter((e) => shown(e) && !inSvg(e) && e.getBoundingClientRect().right > width + 1)
      .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > width + 1));
    say("wider than the screen", widest[0] || root, `${root.scrollWidth} px in ${width} px`);
  }

  // A field's own text scrolls under its caret: it is typed, not read.
  const fields = "input, textarea, select";
  const elements = [...document.body.querySelectorAll("*")].filter((e) => !inSvg(e) && shown(e));
  for (const element of elements) {
    const style = getComputedStyle(element);
    // Content cut: a box that hides what overflows it, with more in it than it shows.
    const hides = (value) => value === "hidden" || value === "clip";
    const cutsX = hides(style.overflowX) || style.textOverflow === "ellipsis";
    const cutsY = hides(style.overflowY);
    if (element.matches(fields)) continue;
    if (cutsX && element.scrollWidth > element.clientWidth + 1) {
      say("content cut", element, `${element.scrollWidth} px wide in ${element.clientWidth} px`);
    } else if (cutsY && element.scrollHeight > element.clientHeight + 1) {
      say("content cut", element, `${element.scrollHeight} px tall in ${element.clientHeight} px`);
    } else if (
      style.overflowY === "visible" && element.clientHeight > 0 && style.display !== "inline" &&
      element.scrollHeight > element.clientHeight + 2
    ) {
      // Content spilling out of a box held to its height: drawn over what comes next.
      say("content spills out", element, `${element.scrollHeight} px tall in ${element.clientHeight} px`);
    }
    // Content out of the screen on a TV, which nobody scrolls.
    if (options.tv) {
      const box = element.getBoundingClientRect();
      if (box.bottom > height + 1 || box.right > width + 1) {
        const inside = [...element.children].some((c) => {
          const b = c.getBoundingClientRect();
          return shown(c) && (b.bottom > height + 1 || b.right > width + 1);
        });
        if (!inside) say("off the TV's screen", element, `to ${Math.round(box.right)}×${Math.round(box.bottom)}`);
      }
    }
  }

  // A line of text cut into columns: a flex or grid box lays each run of its own text out as
  // an item of its own, so a sentence with an element inside it is cut at the element
  // ("Os | Primos 0 – 0 Joaquim | Carvalho"). A label beside its box, one run, is whole.
  for (const element of elements) {
    const display = getComputedStyle(element).display;
    if (!/flex|grid/.test(display)) continue;
    const loose = [...element.childNodes].filter((n) => n.nodeType === 3 && n.data.trim());
    if (loose.length > 1 && element.children.length) {  // text on both sides of an element
      say("text cut into columns", element, `"${loose[0].data.trim().slice(0, 30)}"`);
    }
  }

  // A separator alone at a line's end or start, where the things it separates wrapped.
  for (const element of elements) {
    for (const node of element.childNodes) {
      if (node.nodeType !== 3 || !/^[·|•]$/.test(node.data.trim())) continue;
      const before = node.previousElementSibling;
      const after = node.nextElementSibling;
      range.selectNodeContents(node);
      const dot = [...range.getClientRects()].find((r) => r.width > 0);
      const box = (n) => (n && n.getBoundingClientRect ? n.getBoundingClientRect() : null);
      const [left, right] = [box(before), box(after)];
      const middle = dot && (dot.top + dot.bottom) / 2;
      const onLine = (r) => r && r.top <= middle && middle <= r.bottom;
      if (dot && (!onLine(left) || !onLine(right))) say("separator alone", element, `"${node.data.trim()}"`);
    }
  }

  // A word broken across two lines: a name or a label split inside itself.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      const parent = node.parentElement;
      if (!parent || inSvg(parent)) return NodeFilter.FILTER_REJECT;
      if (parent.closest("script, style, noscript, template, textarea, input, select, option, code, [data-breaks]")) {
        return NodeFilter.FILTER_REJECT;
      }
      if (/^\s*https?:\/\//.test(node.data)) return NodeFilter.FILTER_REJECT;  // an address, not words
      return shown(parent) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
    },
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = node.data.matchAll(/[^\s\-–—/·:,;()«»“”"]+/g);
    for (const word of words) {
      const text = word[0];
      // An address, a key or a number may break where it must; a word of a name may not.
      if (text.length < 2 || /[.@_0-9]/.test(text) || text.length > 24) continue;
      range.setStart(node, word.index);
      range.setEnd(node, word.index + text.length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) say("word broken", node.parentElement, `"${text}"`);
    }
  }

  // Tap targets under 44×44 CSS px on a phone: a link in a sentence is read, not tapped.
  if (options.phone) {
    const targets = document.body.querySelectorAll(
      "a[href], button, select, textarea, summary, input:not([type=hidden]), [role=button]"
    );
    for (const target of targets) {
      if (!shown(target) || inSvg(target)) continue;
      let box = target.getBoundingClientRect();
      if (target.matches("input[type=checkbox], input[type=radio]")) {
        const label = target.closest("label");
        if (label) box = label.getBoundingClientRect();
      }
      if (target.matches("a") && getComputedStyle(target).display === "inline") {
        const sentence = target.parentElement;
        const own = (target.textContent || "").trim().length;
        const around = (sentence && sentence.textContent || "").trim().length;
        if (around > own + 2 && !sentence.matches("nav, nav *")) continue;
      }
      if (box.width < 43.5 || box.height < 43.5) {
        say("tap target too small", target, `${Math.round(box.width)}×${Math.round(box.height)} px`);
      }
    }
  }

  // What must stay in sight at the table (data-in-view: the seats and whose deal it is) is on
  // the first screen, and under no panel that stays on the screen (a sticky or fixed one).
  if (options.phone) {
    const panels = elements.filter((e) => /sticky|fixed/.test(getComputedStyle(e).position));
    for (const kept of document.querySelectorAll("[data-in-view]")) {
      if (!shown(kept)) continue;
      const box = kept.getBoundingClientRect();
      const over = panels.filter((p) => !p.contains(kept) && !kept.contains(p))
        .map((p) => p.getBoundingClientRect())
        .filter((p) => p.top < box.bottom - 1 && p.bottom > box.top + 1 && p.left < box.right && p.right > box.left);
      if (box.bottom > height + 1 || over.length) {
        say("covered or out of sight", kept, `to ${Math.round(box.bottom)} px, a panel from ${over.length ? Math.round(over[0].top) : "-"} px`);
      }
    }
  }

  // Across the room: scores of 96 px and names of 32 px at the least, at 1920×1080.
  if (options.tv && width >= 1900) {
    for (const score of document.querySelectorAll("[data-tv=score]")) {
      const size = parseFloat(getComputedStyle(score).fontSize);
      if (shown(score) && size < 96) say("score too small for the room", score, `${size} px`);
    }
    for (const name of document.querySelectorAll("[data-tv=name]")) {
      // A drawing's text is as big as its drawing is scaled.
      const scale = inSvg(name) ? name.getScreenCTM().a : 1;
      const size = Math.round(parseFloat(getComputedStyle(name).fontSize) * scale);
      if (shown(name) && size < 32) say("name too small for the room", name, `${size} px`);
    }
  }

  // On paper: no control, menu or language switch printed.
  if (options.print) {
    const controls = document.body.querySelectorAll(
      "button, select, textarea, input:not([type=hidden]), summary, nav, form, .button"
    );
    for (const control of controls) {
      if (shown(control)) say("a control on paper", control, "shown in print");
    }
  }
  return found;
}
