#!/usr/bin/env python3
"""The playground page (GET /) in a real browser: headless Chromium driven by Selenium.

Starts `layoutd serve` on 127.0.0.1 (a free port, read from its "listening" log line), opens
`/` and checks, against the frames `/compute` answers for the same request (fetched here with
urllib):
- the page and its assets: types, ETags, same-origin only, loaded in well under a second;
- every example: one drawn box per node, each at its frame (position and size on screen,
  relative to the root box);
- hovering a box shows its id and frame; clicking it selects its node's JSON in the editor;
- the width slider (keyboard) and the ltr/rtl switch change the request and the picture;
- typing in the editor updates the picture;
- a tree the service refuses (422) shows the message and marks the text its pointer names;
  malformed JSON (400) marks the byte offset's line;
- the share link opened in a fresh tab gives the same tree, width, direction and picture.

Screenshots go to $PLAYGROUND_SCREENSHOTS (default /tmp/layoutd-playground). Prints a line per
check and closes with "N passed, M failed"; exits 1 on any failure. Bounded: the whole run is
stopped after 240 seconds.

    Tests/Scripts/playground_browser.py .build/debug/layoutd
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = os.environ.get("PLAYGROUND_SCREENSHOTS", "/tmp/layoutd-playground")
RUN_SECONDS = 240
WAIT_SECONDS = 10
EXAMPLES = ["flex", "stack", "core-layout", "constraints", "fixflex", "flexible-spaces"]
RESULTS = {"passed": 0, "failed": 0}


def check(ok, label, detail=""):
    RESULTS["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'} {label}" + (f": {detail}" if detail else ""), flush=True)
    return ok


# MARK: the server

class Layoutd:
    """`layoutd serve` on 127.0.0.1 and a port it picks; stopped by its PID."""

    def __init__(self, binary):
        env = dict(os.environ, LAYOUTD_LOG_LEVEL="notice")
        self.process = subprocess.Popen([binary, "serve", "--host", "127.0.0.1", "--port", "0"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        self.port = None
        found = threading.Event()

        def read_log():
            for line in self.process.stderr:
                match = re.search(r"msg=listening.* port=(\d+)", line)
                if match and not found.is_set():
                    self.port = int(match.group(1))
                    found.set()
        threading.Thread(target=read_log, daemon=True).start()
        if not found.wait(15):
            self.stop()
            raise RuntimeError("layoutd did not report its port within 15 s")
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def http(base, method, path, body=None, headers=None):
    """(status, headers, body bytes) of one request."""
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def compute(base, tree, width, direction, text_lines=False):
    request = {"available": {"width": width, "height": None}, "direction": direction, "root": tree}
    if text_lines:
        request["textLines"] = True
    body = json.dumps(request)
    status, _, answer = http(base, "POST", "/compute", body.encode(), {"Content-Type": "application/json"})
    if status != 200:
        raise RuntimeError(f"/compute answered {status}: {answer[:200]!r}")
    return json.loads(answer)


def absolute_frames(answer):
    """Every node of an answer in document order: (id, left, top, width, height), absolute."""
    frames = []

    def walk(node, x, y):
        left, top = x + node["left"], y + node["top"]
        frames.append((node.get("id"), left, top, node["width"], node["height"]))
        for child in node.get("children", []):
            walk(child, left, top)
    walk(answer["root"], 0, 0)
    return frames


# MARK: the page

DRAWN_BOXES = """
const canvas = document.querySelector('#picture .canvas');
if (!canvas) return [];
const origin = canvas.getBoundingClientRect();
return [...canvas.querySelectorAll('.box')].map((box) => {
  const r = box.getBoundingClientRect();
  return [box.dataset.id ?? null, r.left - origin.left, r.top - origin.top, r.width, r.height];
});
"""


def page_state(driver):
    picture = driver.find_element(By.ID, "picture")
    return picture.get_attribute("data-state"), int(picture.get_attribute("data-generation") or 0)


def wait_for_answer(driver, after_generation):
    """Waits until the page shows an answer newer than `after_generation`; returns its state."""
    def shown(d):
        state, generation = page_state(d)
        return state if generation > after_generation and state in ("ok", "error") else False
    try:
        return WebDriverWait(driver, WAIT_SECONDS).until(shown)
    except TimeoutException:
        return "timeout"


def editor_request(driver):
    """The tree, width and direction the page is showing."""
    text = driver.execute_script("return document.getElementById('source').value")
    width = float(driver.find_element(By.ID, "width").get_attribute("value"))
    direction = driver.execute_script("return document.querySelector('input[name=direction]:checked').value")
    return text, (int(width) if width.is_integer() else width), direction


def same_frames(drawn, expected):
    if len(drawn) != len(expected):
        return False, f"{len(drawn)} boxes drawn, {len(expected)} nodes"
    for box, frame in zip(drawn, expected):
        if box[0] != frame[0] or any(abs(a - b) > 0.02 for a, b in zip(box[1:], frame[1:])):
            return False, f"box {box} != frame {frame}"
    return True, f"{len(drawn)} boxes at their frames"


def check_picture(driver, base, label):
    """The drawn boxes against /compute's frames for the page's current request."""
    text, width, direction = editor_request(driver)
    expected = absolute_frames(compute(base, json.loads(text), width, direction))
    ok, detail = same_frames(driver.execute_script(DRAWN_BOXES), expected)
    return check(ok, label, detail), expected


def select_text(driver, start, end):
    driver.execute_script("const s = document.getElementById('source'); s.focus(); s.setSelectionRange(arguments[0], arguments[1]);",
                          start, end)


def type_over(driver, old, new, occurrence=0):
    """Selects the `occurrence`-th `old` in the editor and types `new` over it, as keystrokes."""
    text = driver.execute_script("return document.getElementById('source').value")
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(old, index + 1)
    generation = page_state(driver)[1]
    select_text(driver, index, index + len(old))
    driver.find_element(By.ID, "source").send_keys(new)
    return index, wait_for_answer(driver, generation)


def choose_example(driver, name):
    """Picks an example and waits for its picture; "ok" or what was shown instead."""
    select = Select(driver.find_element(By.ID, "example"))
    state, generation = page_state(driver)
    if select.first_selected_option.get_attribute("value") == name and state == "ok":
        return state  # shown already (the page opens with the first example)
    select.select_by_value(name)
    return wait_for_answer(driver, generation)


def screenshot(driver, name):
    path = os.path.join(SCREENSHOTS, f"{name}.png")
    driver.save_screenshot(path)
    return path


def line_of(text, index):
    return text[:index].count("\n") + 1


# MARK: the checks

def check_served_files(base):
    status, headers, page = http(base, "GET", "/")
    page_tag = headers["ETag"]
    check(status == 200 and headers["Content-Type"].startswith("text/html"), "GET / is the page",
          f"{status} {headers['Content-Type']}")
    # The page's links, then the modules each script imports, as the browser finds them.
    assets = re.findall(r'(?:href|src)="(/playground/[^"]+)"', page.decode())
    total = len(page)
    types = {".css": "text/css", ".js": "text/javascript"}
    for path in assets:
        status, headers, body = http(base, "GET", path)
        total += len(body)
        for module in re.findall(r'from "\./([^"]+)"', body.decode()) if path.endswith(".js") else []:
            if "/playground/" + module not in assets:
                assets.append("/playground/" + module)
        wanted = types[os.path.splitext(path)[1]]
        check(status == 200 and headers["Content-Type"].startswith(wanted) and headers["ETag"],
              f"GET {path}", f"{status} {headers['Content-Type']}, ETag {headers['ETag']}")
    status, _, _ = http(base, "GET", "/", headers={"If-None-Match": page_tag})
    check(status == 304, "GET / with its ETag in If-None-Match is 304", str(status))
    return total


def check_loading(driver, base, served_bytes):
    driver.get(base + "/")
    state = wait_for_answer(driver, 0)
    check(state == "ok", "the page opens with a picture", state)
    timing = driver.execute_script("""
        const nav = performance.getEntriesByType('navigation')[0];
        const resources = performance.getEntriesByType('resource');
        return {load: nav.loadEventEnd - nav.startTime, transferred: nav.transferSize,
                names: resources.map((r) => r.name)};""")
    check(timing["load"] < 1000, "the page loads in well under a second", f"load event at {timing['load']:.0f} ms")
    foreign = [name for name in timing["names"] if not name.startswith(base + "/")]
    check(not foreign, "the page fetches from its own server only",
          f"{len(timing['names'])} requests" + (f", foreign: {foreign}" if foreign else ""))
    options = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#example option")]
    missing = [name for name in EXAMPLES if name not in options]
    check(not missing, "one example per model", ", ".join(o for o in options if o) + (f"; missing {missing}" if missing else ""))
    fonts = http(base, "GET", "/fonts")[0] == 200
    check(("text" in options) == fonts, "the text example is offered exactly when /fonts exists",
          f"/fonts {'answers' if fonts else 'is absent'}, text example {'shown' if 'text' in options else 'not shown'}")
    print(f"page weight: {served_bytes} bytes (page and assets, uncompressed)")


DRAWN_LINES = """
const canvas = document.querySelector('#picture .canvas');
if (!canvas) return [];
const origin = canvas.getBoundingClientRect();
return [...canvas.querySelectorAll('.text-line')].map((line) => {
  const r = line.getBoundingClientRect();
  return [line.textContent, r.left - origin.left, r.top - origin.top, r.width, r.height];
});
"""


def check_text_lines(driver, base):
    """The text example's lines are drawn: the answer's lines, in its leaves' boxes (the
    example's leaves have no padding: a line's place is its leaf's corner plus its left/top)."""
    text, width, direction = editor_request(driver)
    answer = compute(base, json.loads(text), width, direction, text_lines=True)
    expected = []

    def walk(node, x, y):
        left, top = x + node["left"], y + node["top"]
        for line in node.get("lines", []):
            expected.append((line["text"], left + line["left"], top + line["top"], line["width"], line["height"]))
        for child in node.get("children", []):
            walk(child, left, top)
    walk(answer["root"], 0, 0)
    drawn = driver.execute_script(DRAWN_LINES)
    check([d[0] for d in drawn] == [e[0] for e in expected] and len(expected) > 1,
          "example text: the drawn lines are the answer's lines", f"{[d[0] for d in drawn]}")
    off = [f"{d} != {e}" for d, e in zip(drawn, expected) if any(abs(a - b) > 0.02 for a, b in zip(d[1:], e[1:]))]
    check(not off, "example text: each line drawn at its place in its leaf", "; ".join(off[:3]))


def check_examples(driver, base):
    names = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#example option")
             if o.get_attribute("value")]
    for name in names:
        state = choose_example(driver, name)
        if not check(state == "ok", f"example {name} is drawn", state):
            continue
        check_picture(driver, base, f"example {name}: one box per node, at /compute's frames")
        if name == "text":
            check_text_lines(driver, base)
        screenshot(driver, f"example-{name}")


def check_hover_and_select(driver):
    choose_example(driver, "flex")
    avatar = driver.find_element(By.CSS_SELECTOR, '.box[data-id="avatar"]')
    ActionChains(driver).move_to_element(avatar).perform()
    shown = driver.find_element(By.ID, "inspect-id").text, driver.find_element(By.ID, "inspect-frame").text
    check(shown == ("avatar", "left 0, top 0, 48 × 48"), "hovering a box shows its id and frame", repr(shown))
    screenshot(driver, "hover")
    title = driver.find_element(By.CSS_SELECTOR, '.box[data-id="title"]')
    title.click()
    selected = driver.execute_script(
        "const s = document.getElementById('source'); return s.value.slice(s.selectionStart, s.selectionEnd)")
    tree = json.loads(editor_request(driver)[0])
    try:
        node = json.loads(selected)
    except json.JSONDecodeError:
        node = selected
    check(node == tree["children"][0]["children"][1], "clicking a box selects its node in the editor",
          " ".join(selected.split())[:60])

    # The other way: the caret moved (by a key) into a node's JSON selects its box.
    text = editor_request(driver)[0]
    inside_ok = text.index('"id": "ok"')
    select_text(driver, inside_ok, inside_ok)
    driver.find_element(By.ID, "source").send_keys(Keys.ARROW_RIGHT)
    selected_box = [b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, ".box.selected")]
    shown = driver.find_element(By.ID, "inspect-id").text
    check(selected_box == ["ok"] and shown == "ok", "moving the caret into a node selects its box",
          f"selected {selected_box}, inspector {shown!r}")
    # Back to the title, for the checks that follow.
    title.click()


def check_controls(driver, base):
    # The slider by keyboard: 20 steps right from 300.
    driver.execute_script("const w = document.getElementById('width'); w.value = 300;")
    generation = page_state(driver)[1]
    slider = driver.find_element(By.ID, "width")
    slider.send_keys(*[Keys.ARROW_RIGHT] * 20)
    state = wait_for_answer(driver, generation)
    width = editor_request(driver)[1]
    check(state == "ok" and width == 320, "the width slider sets available.width", f"{width}, {state}")
    _, before = check_picture(driver, base, "after the slider: boxes at /compute's frames")
    generation = page_state(driver)[1]
    driver.find_element(By.CSS_SELECTOR, 'input[name="direction"][value="rtl"]').click()
    state = wait_for_answer(driver, generation)
    ok, after = check_picture(driver, base, "after rtl: boxes at /compute's frames for direction rtl")
    avatar_before = next(f for f in before if f[0] == "avatar")
    avatar_after = next(f for f in after if f[0] == "avatar")
    check(state == "ok" and avatar_after[1] > avatar_before[1], "rtl mirrors the row (avatar moves right)",
          f"avatar x {avatar_before[1]} -> {avatar_after[1]}")
    title = next(f for f in after if f[0] == "title")
    header = next(f for f in after if f[0] == "header")
    wanted = f"left {title[1] - header[1]:g}, top {title[2] - header[2]:g}, {title[3]:g} × {title[4]:g}"
    shown = driver.find_element(By.ID, "inspect-frame").text
    check(shown == wanted, "the selected box keeps its selection, with its new frame", shown)
    screenshot(driver, "rtl")
    generation = page_state(driver)[1]
    driver.find_element(By.CSS_SELECTOR, 'input[name="direction"][value="ltr"]').click()
    wait_for_answer(driver, generation)


def check_editing(driver, base):
    choose_example(driver, "flex")
    _, state = type_over(driver, '"width": 48', '"width": 96')
    avatar = driver.execute_script("const b = document.querySelector('.box[data-id=\"avatar\"]'); return b && b.getBoundingClientRect().width")
    check(state == "ok" and avatar == 96, "typing a new width redraws the box", f"avatar width {avatar}, {state}")
    check_picture(driver, base, "after the edit: boxes at /compute's frames")

    # 422: a negative width, pointed at by the service.
    index, state = type_over(driver, "96", "-5")
    text = editor_request(driver)[0]
    error = driver.find_element(By.ID, "error")
    marked = driver.find_element(By.CSS_SELECTOR, "#marks mark").text if driver.find_elements(By.CSS_SELECTOR, "#marks mark") else None
    location = driver.find_element(By.ID, "error-location")
    line = line_of(text, index)
    check(state == "error" and error.is_displayed() and "negative" in error.text,
          "a refused tree shows the service's message", error.text.replace("\n", " | "))
    check(driver.find_element(By.ID, "picture").get_attribute("data-error-pointer") == "/root/children/0/children/0/style/width"
          and "/root/children/0/children/0/style/width" in location.text, "the error shows its pointer", location.text)
    check(marked == "-5" and location.get_attribute("data-line") == str(line),
          "the pointer is marked at its place in the editor", f"marked {marked!r}, line {location.get_attribute('data-line')} (want {line})")
    gutter = driver.find_element(By.CSS_SELECTOR, "#gutter .error-line").text if driver.find_elements(By.CSS_SELECTOR, "#gutter .error-line") else None
    check(gutter == str(line), "the gutter marks the error's line", f"{gutter}")
    screenshot(driver, "error-pointer")

    # 400: malformed JSON, located by the service's byte offset.
    index, state = type_over(driver, "-5", "48 48")
    text = editor_request(driver)[0]
    location = driver.find_element(By.ID, "error-location")
    check(state == "error" and "invalid-json" in driver.find_element(By.ID, "error-message").text
          and location.get_attribute("data-line") == str(line_of(text, index)),
          "malformed JSON is marked on its line", f"{location.text}; want line {line_of(text, index)}")
    location.click()
    caret = driver.execute_script("return document.getElementById('source').selectionStart")
    check(line_of(text, caret) == line_of(text, index), "clicking the error's place selects it in the editor",
          f"caret on line {line_of(text, caret)}")

    _, state = type_over(driver, "48 48", "48")
    check(state == "ok" and not driver.find_element(By.ID, "error").is_displayed(),
          "fixing the tree clears the error and redraws", state)


def check_share_link(driver, base):
    choose_example(driver, "constraints")
    type_over(driver, "icon.width == 40", "icon.width == 56")
    driver.execute_script("const w = document.getElementById('width'); w.value = 280; w.dispatchEvent(new Event('input'));")
    generation = page_state(driver)[1]
    driver.find_element(By.CSS_SELECTOR, 'input[name="direction"][value="rtl"]').click()
    wait_for_answer(driver, generation)
    wanted = editor_request(driver)
    link = driver.find_element(By.ID, "share-link").get_attribute("href")
    original = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(link)
    state = wait_for_answer(driver, 0)
    got = editor_request(driver)
    check(state == "ok" and got == wanted, "the share link opens the same tree, width and direction in a fresh tab",
          f"{len(link)}-character link, width {got[1]}, {got[2]}")
    check_picture(driver, base, "the shared tree's boxes at /compute's frames")
    screenshot(driver, "shared")
    driver.close()
    driver.switch_to.window(original)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    os.makedirs(SCREENSHOTS, exist_ok=True)

    def out_of_time(*_):
        raise TimeoutError(f"the run took longer than {RUN_SECONDS} s")
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(RUN_SECONDS)

    server = Layoutd(sys.argv[1])
    driver = None
    try:
        print(f"layoutd on {server.base} (pid {server.process.pid})", flush=True)
        served_bytes = check_served_files(server.base)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         "--window-size=1400,900", "--force-device-scale-factor=1"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        driver.set_page_load_timeout(WAIT_SECONDS)
        check_loading(driver, server.base, served_bytes)
        check_examples(driver, server.base)
        check_hover_and_select(driver)
        check_controls(driver, server.base)
        check_editing(driver, server.base)
        check_share_link(driver, server.base)
    except Exception as error:  # any failure to run a check is a failed check
        check(False, "the run completed", f"{type(error).__name__}: {error}")
        if driver is not None:
            try:
                print(f"screenshot at failure: {screenshot(driver, 'failure')}")
            except Exception:
                pass
    finally:
        signal.alarm(0)
        if driver is not None:
            driver.quit()
        server.stop()
    print(f"screenshots in {SCREENSHOTS}")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    return 1 if RESULTS["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
