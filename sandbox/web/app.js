// The sandbox page: one channel, or the direct messages with the bot, as one pretend player
// sees it, kept live by server-sent
// events, and a composer that sends slash commands the way Discord's app does.
"use strict";

const query = new URLSearchParams(location.search);
const page = {
  me: query.get("as") || "",
  channel: query.get("channel") || "",
  state: null,
  commands: [],
  source: null,
  rendered: new Map(), // message id -> [rev, element]
  follow: true, // whether the channel is kept scrolled to its newest message
};
const $ = (id) => document.getElementById(id);

// --- talking to the sandbox -----------------------------------------------------------------

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.json();
}

function notice(text) {
  $("notice").textContent = text || "";
}

function listen() {
  if (page.source) page.source.close();
  const params = new URLSearchParams({ user: page.me, channel: page.channel });
  history.replaceState(null, "", `?as=${page.me}&channel=${page.channel}`);
  page.source = new EventSource(`/events?${params}`);
  page.source.onmessage = (event) => show(JSON.parse(event.data));
  page.source.onerror = () => {
    $("status").textContent = "reconnecting…";
    $("status").className = "down";
  };
}

async function start() {
  const world = await (await fetch("/api/world")).json();
  // An address without a known player or channel gets the first of each.
  if (!world.players.some((p) => p.id === page.me)) page.me = world.players[0].id;
  page.players = world.players;
  const dm = world.players.find((p) => p.id === page.me).dm;
  const places = [...world.channels, ...world.threads];
  if (page.channel !== dm && !places.some((c) => c.id === page.channel)) {
    page.channel = world.channels[0].id;
  }
  page.commands = await (await fetch("/api/commands")).json();
  fillCommands();
  listen();
}

// --- the view ---------------------------------------------------------------------------------

function show(state) {
  page.state = state;
  $("hint").hidden = state.messages.length > 0 || state.channel === state.dm;
  $("dm-hint").hidden = state.messages.length > 0 || state.channel !== state.dm;
  $("status").textContent = state.connected ? "" : "the bot is offline";
  $("status").className = state.connected ? "" : "down";
  // Rebuilt only when they change, so that a menu being opened is left alone.
  const header = JSON.stringify(
    [state.channel, state.channels, state.threads, state.me, state.players]);
  if (header !== page.header) {
    page.header = header;
    // Each channel's threads follow it, as Discord's channel list nests them.
    const places = [
      ...state.channels.flatMap((c) => [c, ...state.threads.filter((t) => t.parent === c.id)]),
      { id: state.dm, name: "Direct messages", dm: true },
    ];
    $("channels").replaceChildren(...places.map((c) => {
      const button = element("button", c.id === state.channel ? "current" : "", c.name);
      if (c.dm) button.classList.add("dm");
      if (c.parent) {
        button.classList.add("thread");
        button.classList.toggle("archived", c.archived);
        const parent = state.channels.find((p) => p.id === c.parent);
        button.title = `#${parent.name} › ${c.name}${c.archived ? " (archived)" : ""}`;
      }
      button.type = "button";
      button.dataset.channel = c.id;
      button.onclick = () => switchTo(page.me, c.id);
      return button;
    }));
    // A channel mention shown before its thread was listed takes the thread's name now.
    for (const link of $("messages").querySelectorAll("a.mention[data-channel]")) {
      const place = placeOf(link.dataset.channel);
      if (place) link.textContent = `#${place.name}`;
    }
    $("player").replaceChildren(...state.players.map((p) => {
      const option = element("option", "", p.pinged ? `${p.name} (pinged)` : p.name);
      option.value = p.id;
      option.selected = p.id === state.me;
      return option;
    }));
    // Who may use the settings that need Manage Server (league, daily channel).
    const managers = state.players.filter((p) => p.manager).map((p) => p.name);
    $("manager").textContent = managers.length ? `${managers.join(", ")} can manage the server` : "";
  }
  const box = $("messages");
  const seen = new Set();
  let previous = null;
  for (const message of state.messages) {
    seen.add(message.id);
    const known = page.rendered.get(message.id);
    let element = known && known[1];
    if (!known || known[0] !== message.rev) {
      const fresh = renderMessage(message);
      if (element) {
        element.replaceWith(fresh);
        grown.unobserve(element);
      }
      grown.observe(fresh);
      element = fresh;
      page.rendered.set(message.id, [message.rev, element]);
    }
    const expected = previous ? previous.nextSibling : box.firstChild;
    if (expected !== element) box.insertBefore(element, expected);
    previous = element;
  }
  for (const [id, [, element]] of page.rendered) {
    if (!seen.has(id)) {
      element.remove();
      grown.unobserve(element);
      page.rendered.delete(id);
    }
  }
  if (page.wanted && page.rendered.has(page.wanted)) {
    const [, target] = page.rendered.get(page.wanted);
    page.wanted = null;
    page.follow = false;
    target.classList.add("linked");
    target.scrollIntoView({ block: "center" });
  }
  if (page.follow) toNewest();
}

// The newest message's buttons stay in view while the channel follows its end: pictures load
// after a message is shown and push its buttons down, so every size change scrolls again.
// Only the reader's own scrolling back stops following (a scroll event alone may as well be
// the browser keeping its place while messages grow); reaching the end, or acting, follows
// again.
const grown = new ResizeObserver(() => {
  if (page.follow) toNewest();
});

function toNewest() {
  const box = $("messages");
  box.scrollTop = box.scrollHeight;
}

function readBack() {
  page.follow = false;
}

{
  const box = $("messages");
  box.addEventListener("wheel", (event) => {
    if (event.deltaY < 0) readBack();
  }, { passive: true });
  box.addEventListener("touchmove", readBack, { passive: true });
  box.addEventListener("mousedown", (event) => {
    if (event.offsetX >= box.clientWidth) readBack(); // on the scroll bar
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest && event.target.closest("input, select, textarea");
    if (!typing && ["ArrowUp", "PageUp", "Home"].includes(event.key)) readBack();
  });
  box.addEventListener("scroll", () => {
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 80) page.follow = true;
  });
}

function followNewest() {
  page.follow = true;
  toNewest();
}

function switchTo(player, channel) {
  if (player === page.me && channel === page.channel) return;
  page.me = player;
  page.channel = channel;
  page.rendered.clear();
  $("hint").hidden = true;
  $("dm-hint").hidden = true;
  grown.disconnect();
  $("messages").replaceChildren();
  page.follow = true;
  notice("");
  listen();
}

// A link to a message or channel on Discord opens the page's own view of it: a channel of
// the server, or the player's direct messages; anything else opens as a web link.
const DISCORD_LINK = /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/[^/]+\/(\d+)(?:\/(\d+))?\/?$/;

function linkTo(url, text) {
  const link = element("a", "link");
  link.append(...text);
  const inside = url.match(DISCORD_LINK);
  if (!inside) {
    link.href = url;
    link.target = "_blank";
    link.rel = "noopener";
    return link;
  }
  const [, channel, message] = inside;
  link.href = `?as=${page.me}&channel=${channel}${message ? `#${message}` : ""}`;
  link.dataset.channel = channel;
  if (message) link.dataset.message = message;
  link.title = url;
  return link;
}

// A channel or thread of the server, by id (undefined for any other).
function placeOf(id) {
  const state = page.state;
  return state.channels.find((c) => c.id === id) || state.threads.find((t) => t.id === id);
}

function openLink(channel, message) {
  const known = channel === page.state.dm || placeOf(channel);
  if (!known) {
    notice("That link leads to a place this player cannot open.");
    return;
  }
  page.wanted = message || null;
  if (channel === page.channel) {
    show(page.state);
  } else {
    switchTo(page.me, channel);
    page.wanted = message || null;
  }
  if (!message) followNewest();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-channel]");
  if (!link) return;
  event.preventDefault();
  openLink(link.dataset.channel, link.dataset.message);
});

function nameOf(id) {
  const state = page.state;
  const player = state.players.find((p) => p.id === id);
  return player ? player.name : null;
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
  })[c]);
}

// Discord's markdown, as much of it as the bot writes.
function markdown(text) {
  const links = [];
  const lines = text.split("\n").map((line) => {
    // [text](url) and [text](<url>), as Discord renders them: kept aside while the rest is
    // escaped and formatted, then put back as links.
    line = line.replace(/\[([^\]\n]+)\]\(<?(https?:\/\/[^\s<>()]+)>?\)/g, (_, label, url) => {
      links.push([label, url]);
      return `\u0000${links.length - 1}\u0000`;
    });
    let html = escapeHtml(line);
    html = html.replace(/`([^`]+)`/g, "<code>$1</code>");
    html = html.replace(/\*\*(.+?)\*\*/g, "<b>$1</b>");
    html = html.replace(/__(.+?)__/g, "<u>$1</u>");
    html = html.replace(/~~(.+?)~~/g, "<s>$1</s>");
    html = html.replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?!\w)/g, "$1<i>$2</i>");
    html = html.replace(/(^|[^\w\\])_([^_\s][^_]*?)_(?!\w)/g, "$1<i>$2</i>");
    html = html.replace(/\\([*_~`\\|<>])/g, "$1");
    html = html.replace(/&lt;@!?(\d+)&gt;/g, (_, id) => {
      const name = nameOf(id) || (id === page.state.bot_id ? page.state.bot : "someone");
      const me = id === page.me ? " me" : "";
      return `<span class="mention${me}" data-user="${id}">@${escapeHtml(name)}</span>`;
    });
    // A channel or thread mention opens its place, as a link to it on Discord would.
    html = html.replace(/&lt;#(\d+)&gt;/g, (_, id) => {
      const place = placeOf(id);
      const link = linkTo(`https://discord.com/channels/${page.state.guild}/${id}`,
        [`#${place ? place.name : "unknown"}`]);
      link.classList.add("mention");
      return link.outerHTML;
    });
    html = html.replace(/&lt;t:(\d+)(?::([tTdDfFR]))?&gt;/g, (_, seconds, style) => {
      const when = new Date(Number(seconds) * 1000);
      const text = style === "R" ? relative(when) : when.toLocaleString();
      return `<span class="mention" title="${when.toLocaleString()}">${text}</span>`;
    });
    if (html.startsWith("-# ")) return `<span class="small">${html.slice(3)}</span>`;
    if (html.startsWith("&gt; ")) return `<blockquote>${html.slice(5)}</blockquote>`;
    const heading = html.match(/^(#{1,3}) (.*)$/);
    if (heading) return `<h${heading[1].length}>${heading[2]}</h${heading[1].length}>`;
    return html;
  });
  const html = lines.join("\n").replace(/<\/(blockquote|h\d)>\n/g, "</$1>");
  return html.replace(/\u0000(\d+)\u0000/g, (_, index) => {
    const [label, url] = links[Number(index)];
    const holder = document.createElement("span");
    holder.innerHTML = markdown(label);
    return linkTo(url, [...holder.childNodes]).outerHTML;
  });
}

function relative(when) {
  const minutes = Math.round((when - Date.now()) / 60000);
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  if (Math.abs(minutes) < 48 * 60) return format.format(Math.round(minutes / 60), "hour");
  return format.format(Math.round(minutes / 1440), "day");
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderMessage(message) {
  const node = element("article", "message");
  node.dataset.id = message.id;
  if (message.mentioned) node.classList.add("mentioned");
  if (message.ephemeral) node.classList.add("ephemeral");
  if (message.command) {
    const line = element("div", "command");
    line.append(element("b", "", message.command.user), ` used /${message.command.name}`);
    node.append(line);
  }
  const author = element("div", "author", message.author);
  if (message.bot) author.append(element("span", "tag", "APP"));
  node.append(author);
  if (message.loading) {
    node.append(element("div", "thinking", `${message.author} is thinking…`));
  }
  if (message.content) {
    const content = element("div", "content");
    content.innerHTML = markdown(message.content);
    if (message.edited) content.append(" ", element("span", "edited", "(edited)"));
    node.append(content);
  }
  for (const embed of message.embeds) {
    const box = element("div", "embed");
    if (embed.title) box.append(element("div", "title", embed.title));
    if (embed.description) {
      const text = element("div", "content");
      text.innerHTML = markdown(embed.description);
      box.append(text);
    }
    node.append(box);
  }
  const images = message.attachments.filter((file) => file.image);
  if (images.length) {
    const pictures = element("div", "pictures");
    pictures.dataset.count = images.length;
    const spans = mosaicSpans(images.length);
    images.forEach((file, index) => {
      const img = document.createElement("img");
      img.src = file.url;
      img.alt = file.description;
      img.title = file.filename;
      img.dataset.filename = file.filename;
      img.loading = "eager";
      img.onclick = () => enlarge(file);
      if (spans) img.style.gridColumn = `span ${spans[index]}`;
      pictures.append(img);
    });
    node.append(pictures);
  }
  const files = message.attachments.filter((file) => !file.image);
  if (files.length) {
    const box = element("div", "files");
    for (const file of files) {
      const link = element("a", "file", file.filename);
      link.href = file.url;
      link.download = file.filename;
      box.append(link);
    }
    node.append(box);
  }
  for (const row of message.components) {
    node.append(renderRow(message, row.components || [row]));
  }
  if (message.ephemeral) {
    node.append(element("div", "only-you", "Only you can see this"));
  }
  return node;
}

// Discord's mosaic of a message's pictures, on a grid of six columns: two side by side, four
// as 2 x 2, five and more in rows of three with what is left over first (three pictures are
// one large beside two small: style.css). Each picture fills its cell's width.
function mosaicSpans(count) {
  if (count === 1 || count === 3) return null;
  if (count === 2 || count === 4) return Array(count).fill(3);
  const first = count % 3;
  return [...Array(first).fill(6 / first), ...Array(count - first).fill(2)];
}

function renderRow(message, components) {
  const row = element("div", "row");
  for (const c of components) {
    if (c.type === 2 && c.style === 5) {
      const link = linkTo(c.url, [c.label || "link"]);
      link.className = "s5";
      row.append(link);
    } else if (c.type === 2) {
      const label = [c.emoji && c.emoji.name, c.label].filter(Boolean).join(" ");
      const button = element("button", `s${c.style || 2}`, label);
      button.type = "button";
      button.disabled = Boolean(c.disabled);
      button.dataset.customId = c.custom_id;
      button.onclick = () => act(button, "/api/click", {
        user: page.me, message: message.id, custom_id: c.custom_id,
      });
      row.append(button);
    } else if (c.type === 3 || c.type === 5) {
      row.append(renderSelect(message, c));
    }
  }
  return row;
}

function renderSelect(message, c) {
  const select = document.createElement("select");
  select.dataset.customId = c.custom_id;
  select.disabled = Boolean(c.disabled);
  select.multiple = (c.max_values || 1) > 1;
  const choices = c.type === 5
    ? page.state.players.map((p) => ({ label: p.name, value: p.id }))
    : c.options || [];
  if (!select.multiple) {
    const placeholder = element("option", "", c.placeholder || "Make a selection");
    placeholder.value = "";
    placeholder.disabled = true;
    placeholder.selected = !choices.some((o) => o.default);
    select.append(placeholder);
  }
  for (const choice of choices) {
    const option = element("option", "", choice.label);
    option.value = choice.value;
    option.selected = Boolean(choice.default);
    if (choice.description) option.title = choice.description;
    select.append(option);
  }
  select.onchange = () => {
    const values = [...select.selectedOptions].map((o) => o.value).filter(Boolean);
    if (values.length < (c.min_values ?? 1)) return;
    act(select, "/api/select", {
      user: page.me, message: message.id, custom_id: c.custom_id, values,
    });
  };
  return select;
}

async function act(control, path, body) {
  control.disabled = true;
  notice("");
  followNewest();
  try {
    const answer = await post(path, body);
    if (!answer.ok) notice(answer.error);
  } catch (error) {
    notice(`The sandbox did not answer: ${error}`);
  } finally {
    // The bot usually edits or replaces the message; if it did not, the control works again.
    if (control.isConnected) control.disabled = false;
  }
}

function enlarge(file) {
  const box = $("lightbox");
  box.querySelector("img").src = file.url;
  box.querySelector("img").alt = file.description;
  box.hidden = false;
}
$("lightbox").onclick = () => { $("lightbox").hidden = true; };
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") $("lightbox").hidden = true;
});
// Another player's view of the same place: the same channel, or their own direct messages.
$("player").onchange = () => {
  const player = $("player").value;
  const inDms = page.state && page.channel === page.state.dm;
  switchTo(player, inDms ? page.players.find((p) => p.id === player).dm : page.channel);
};

// --- the composer ----------------------------------------------------------------------------

function fillCommands() {
  const select = $("command");
  const none = element("option", "", "choose a command…");
  none.value = "";
  select.replaceChildren(none, ...page.commands.map((command, index) => {
    const option = element("option", "", command.path.join(" "));
    option.value = String(index);
    option.title = command.description;
    return option;
  }));
  select.onchange = () => fillOptions(page.commands[Number(select.value)]);
}

const OPTION_TYPES = { 3: "text", 4: "number", 10: "number" };

function fillOptions(command) {
  const box = $("options");
  box.replaceChildren();
  notice("");
  if (!command) return;
  for (const option of command.options) {
    const field = element("label", "option");
    const name = element("span", option.required ? "required" : "", option.name);
    name.title = option.description || "";
    if (!option.required) name.append(" ", element("span", "optional", "(optional)"));
    field.append(name);
    let control;
    if (option.choices && option.choices.length) {
      control = pickFrom(option.choices.map((c) => ({ label: c.name, value: String(c.value) })));
    } else if (option.type === 5) {
      control = pickFrom([{ label: "True", value: "true" }, { label: "False", value: "false" }]);
    } else if (option.type === 6 || option.type === 9) {
      control = pickFrom(page.state.players.map((p) => ({ label: p.name, value: p.id })));
    } else if (option.type === 7) {
      control = pickFrom(page.state.channels.map((c) => ({ label: `#${c.name}`, value: c.id })));
    } else {
      control = document.createElement("input");
      // A picked choice shows its name, which a number field would refuse.
      control.type = option.autocomplete ? "text" : OPTION_TYPES[option.type] || "text";
      control.placeholder = takes(option);
      if (option.min_value !== undefined) control.min = String(option.min_value);
      if (option.max_value !== undefined) control.max = String(option.max_value);
      if (option.autocomplete) suggest(control, field, command, option);
    }
    control.dataset.option = option.name;
    control.dataset.type = String(option.type);
    field.append(control);
    // What an optional option takes, in the bot's words: it can be left empty, so the name
    // alone says too little (Discord's app shows the description as well).
    if (!option.required && option.description) {
      field.append(element("span", "takes", option.description));
    }
    box.append(field);
  }
}

// A typed option's kind of value, as a placeholder: "1-4", "a number", "type, then pick".
function takes(option) {
  const low = option.min_value, high = option.max_value;
  if (low !== undefined && high !== undefined) return `${low}-${high}`;
  if (low !== undefined) return `${low} or more`;
  if (high !== undefined) return `up to ${high}`;
  if (option.autocomplete) return "type, then pick";
  return OPTION_TYPES[option.type] === "number" ? "a number" : "";
}

function pickFrom(choices) {
  const select = document.createElement("select");
  const none = element("option", "", "");
  none.value = "";
  select.append(none, ...choices.map((c) => {
    const option = element("option", "", c.label);
    option.value = c.value;
    return option;
  }));
  return select;
}

function optionValue(control) {
  // An autocomplete input shows a choice's name and sends its value, as Discord's app does.
  if (control.dataset.label !== undefined && control.value === control.dataset.label) {
    return control.dataset.value;
  }
  if (control.value === "") return "";
  if (control.dataset.type === "5") return control.value === "true";
  return control.value;
}

function typedOptions() {
  const options = {};
  for (const control of $("options").querySelectorAll("[data-option]")) {
    const value = optionValue(control);
    if (value !== "") options[control.dataset.option] = value;
  }
  return options;
}

function suggest(input, field, command, option) {
  const list = element("ul", "choices");
  list.hidden = true;
  list.dataset.for = option.name;
  field.append(list);
  let asked = 0;
  const ask = async () => {
    const ticket = ++asked;
    const typed = input.value;
    const options = typedOptions();
    options[option.name] = typed;
    const answer = await post("/api/autocomplete", {
      user: page.me, channel: page.channel, path: command.path, options, focused: option.name,
    });
    if (ticket !== asked || document.activeElement !== input) return;
    if (!answer.ok) notice(answer.error);
    list.replaceChildren(...(answer.choices || []).map((choice) => {
      const item = element("li", "", choice.name);
      item.dataset.value = String(choice.value);
      item.onmousedown = (event) => {
        event.preventDefault();
        input.value = choice.name;
        input.dataset.label = choice.name;
        input.dataset.value = String(choice.value);
        list.hidden = true;
      };
      return item;
    }));
    list.dataset.typed = typed;
    list.hidden = list.children.length === 0;
  };
  let timer = null;
  input.addEventListener("input", () => {
    delete input.dataset.label;
    delete input.dataset.value;
    clearTimeout(timer);
    timer = setTimeout(ask, 150);
  });
  input.addEventListener("focus", ask);
  input.addEventListener("blur", () => { list.hidden = true; });
}

$("composer").onsubmit = async (event) => {
  event.preventDefault();
  const command = page.commands[Number($("command").value)];
  if (!command) {
    notice("Choose a command first.");
    return;
  }
  const send = $("send");
  send.disabled = true;
  notice("");
  followNewest();
  try {
    const answer = await post("/api/slash", {
      user: page.me, channel: page.channel, path: command.path, options: typedOptions(),
    });
    if (!answer.ok) notice(answer.error);
    else if (answer.shown && page.commands[Number($("command").value)] === command) {
      fillOptions(command);
    }
  } finally {
    send.disabled = false;
  }
};

start();
