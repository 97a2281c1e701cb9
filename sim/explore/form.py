"""The content as forms, one tab per file: a Panel component drawing every
field in the browser at once (one component, not hundreds of widgets, so the
page opens in a moment). Enter (or leaving a changed field) sends the text to
the page; Escape puts the draft's value back. A refused value keeps its text,
outlined, with the loader's one-line error beside it."""

from __future__ import annotations

import param
from panel.custom import JSComponent

FORM_CSS = """
:host { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 12px; color: #1f2933;
        display: block; }
.tabs { display: flex; flex-wrap: wrap; gap: 2px; border-bottom: 1px solid #cbd2d9; margin-bottom: 4px; }
.tabs button { border: 1px solid #cbd2d9; border-bottom: none; background: #f5f7fa; padding: 4px 8px;
               font-size: 12px; cursor: pointer; border-radius: 4px 4px 0 0; color: #334e68; }
.tabs button.on { background: white; font-weight: 600; color: #102a43; }
.tabs button .count { color: #0b69a3; font-weight: 700; }
.pane { max-height: 640px; overflow-y: auto; padding-right: 4px; }
.table { font-weight: 600; color: #334e68; margin: 8px 0 2px 0; border-bottom: 1px solid #e4e7eb; }
.table .named { font-weight: 400; color: #7b8794; }
.row { display: grid; grid-template-columns: 150px 84px 1fr; gap: 6px; align-items: start; padding: 2px 0; }
.name { font-family: ui-monospace, monospace; padding-top: 4px; }
.name.edited { color: #0b69a3; font-weight: 700; }
.hint { display: block; color: #9aa5b1; font-size: 10px; font-family: system-ui, sans-serif; }
input { width: 76px; padding: 3px 5px; font-size: 12px; border: 1px solid #cbd2d9; border-radius: 3px; }
input:focus { outline: 2px solid #2680c2; border-color: #2680c2; }
input.edited { background: #e6f6ff; }
input.bad { border-color: #c62828; outline-color: #c62828; background: #fff1f0; }
.problem { color: #c62828; font-size: 11px; padding-top: 3px; }
.was { color: #9aa5b1; font-size: 10px; padding-top: 5px; }
"""


class ContentForm(JSComponent):
    """Every field of the form (``fields``: ``{id, file, table, title, name, hint, base}``), the
    draft's text of each (``values``), the edited ones and the refused ones' errors, by id;
    ``on_submit(id, text)`` is called with each field's text as it is applied, ``on_shown()``
    each time a browser draws the form."""

    fields = param.List(default=[])
    values = param.Dict(default={})
    edited = param.List(default=[])
    errors = param.Dict(default={})

    _stylesheets = [FORM_CSS]
    _esm = """
    export function render({ model }) {
      const root = document.createElement("div")
      const tabs = document.createElement("div")
      tabs.className = "tabs"
      root.appendChild(tabs)
      const inputs = {}, errors = {}, names = {}, was = {}, panes = {}, buttons = {}
      const byFile = {}
      for (const f of model.fields) {
        (byFile[f.file] = byFile[f.file] || []).push(f)
      }
      function show(file) {
        for (const [name, pane] of Object.entries(panes)) {
          pane.style.display = name === file ? "block" : "none"
          buttons[name].classList.toggle("on", name === file)
        }
      }
      function commit(input) {
        if (input.value !== input.dataset.sent) {
          input.dataset.sent = input.value
          model.send_msg({id: input.dataset.key, text: input.value})
        }
      }
      for (const [file, fields] of Object.entries(byFile)) {
        const button = document.createElement("button")
        button.type = "button"
        button.dataset.file = file
        button.innerHTML = file.replace(".toml", "") + ' <span class="count"></span>'
        button.addEventListener("click", () => show(file))
        tabs.appendChild(button)
        buttons[file] = button
        const pane = document.createElement("div")
        pane.className = "pane"
        pane.dataset.file = file
        panes[file] = pane
        root.appendChild(pane)
        let table = null
        for (const f of fields) {
          if (f.table !== table) {
            table = f.table
            const head = document.createElement("div")
            head.className = "table"
            head.textContent = table || file
            if (f.title) {
              const named = document.createElement("span")
              named.className = "named"
              named.textContent = " · " + f.title
              head.appendChild(named)
            }
            pane.appendChild(head)
          }
          const row = document.createElement("div")
          row.className = "row"
          const name = document.createElement("label")
          name.className = "name"
          name.textContent = f.name
          const hint = document.createElement("span")
          hint.className = "hint"
          hint.textContent = f.hint
          name.appendChild(hint)
          const input = document.createElement("input")
          input.type = "text"
          input.dataset.key = f.id
          input.value = input.dataset.sent = model.values[f.id]
          input.setAttribute("aria-label", f.id)
          input.addEventListener("keydown", (e) => {
            if (e.key === "Enter") commit(input)
            if (e.key === "Escape") { input.value = model.values[f.id]; commit(input) }
          })
          input.addEventListener("change", () => commit(input))
          name.htmlFor = "f-" + f.id
          input.id = "f-" + f.id
          const side = document.createElement("div")
          const error = document.createElement("div")
          error.className = "problem"
          error.dataset.key = f.id
          const old = document.createElement("div")
          old.className = "was"
          side.appendChild(error)
          side.appendChild(old)
          row.appendChild(name)
          row.appendChild(input)
          row.appendChild(side)
          pane.appendChild(row)
          inputs[f.id] = input
          errors[f.id] = error
          names[f.id] = name
          was[f.id] = [old, f.base]
        }
      }
      function update() {
        const edited = new Set(model.edited)
        const counts = {}
        for (const [id, input] of Object.entries(inputs)) {
          const bad = id in model.errors
          if (!bad && input.value === input.dataset.sent) {  // never over text typed and not yet applied
            input.value = input.dataset.sent = model.values[id]
          }
          input.classList.toggle("bad", bad)
          input.classList.toggle("edited", edited.has(id))
          names[id].classList.toggle("edited", edited.has(id))
          errors[id].textContent = bad ? model.errors[id] : ""
          was[id][0].textContent = edited.has(id) && !bad ? "baseline " + was[id][1] : ""
          if (edited.has(id)) {
            const file = id.split(":")[0]
            counts[file] = (counts[file] || 0) + 1
          }
        }
        for (const [file, button] of Object.entries(buttons)) {
          button.querySelector(".count").textContent = counts[file] ? "(" + counts[file] + ")" : ""
        }
      }
      model.on("values", update)
      model.on("edited", update)
      model.on("errors", update)
      update()
      show(Object.keys(byFile)[0])
      model.send_msg({shown: true})
      return root
    }
    """

    def __init__(self, on_submit, on_shown, **params):
        super().__init__(**params)
        self.on_submit, self.on_shown = on_submit, on_shown

    def _handle_msg(self, data):
        if data.get("shown"):
            self.on_shown()
        else:
            self.on_submit(data["id"], data["text"])
