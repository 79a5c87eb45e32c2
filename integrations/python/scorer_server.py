#!/usr/bin/env python3
"""Reference image-scorer service for rubrica's hybrid reward (Reason-SVG's R_aesthetic = HPSv2).

Protocol (docs/reason-svg.md):
    POST /score   {"images": ["<base64 PNG>", ...], "prompts": ["...", ...]}
    200           {"scores": [number | null, ...]}   same length and order; null = that item failed
    4xx / 5xx     {"error": "..."}                   the whole batch failed
    GET /healthz  {"ok": true, "model": "..."}

The HTTP layer uses only the standard library. The model part runs only where its packages
are installed (a GPU machine with torch + Pillow + the `hpsv2` package, or `open_clip_torch`
for the CLIP cosine); they are imported lazily, when the first request needs them, so
`--stand-in` (a deterministic stand-in used by rubrica's CI to test the HTTP layer) needs
nothing. The model classes are not exercised in rubrica's CI (no torch, no weights there).

    python3 scorer_server.py --model hpsv2 --port 8790          # HPSv2.1 (pip install hpsv2)
    python3 scorer_server.py --model open-clip --port 8790      # CLIP ViT-L/14 cosine
    python3 scorer_server.py --stand-in --port 0                # tests: prints the bound port
"""

import argparse
import base64
import binascii
import hashlib
import io
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def stand_in_scores(images, prompts):
    """Deterministic stand-in: sha256(png bytes + prompt) mapped to [0, 1).

    Test hooks (stand-in mode only): a prompt "__null__" gives null for that item,
    "__error__" fails the whole batch, "__slow__" sleeps 3 s first.
    """
    if "__error__" in prompts:
        raise RuntimeError("stand-in asked to fail")
    if "__slow__" in prompts:
        time.sleep(3)
    out = []
    for png, prompt in zip(images, prompts):
        if prompt == "__null__":
            out.append(None)
            continue
        digest = hashlib.sha256(png + prompt.encode("utf-8")).digest()
        out.append(int.from_bytes(digest[:4], "big") / 2**32)
    return out


class Hpsv2Model:
    """HPSv2 / HPSv2.1 (Wu et al.): needs torch, Pillow and the `hpsv2` package.

    `hpsv2.score()` reloads its checkpoint on every call, which is far too slow for a reward
    service, so the model is built once here with the package's own open_clip fork and
    checkpoint (downloaded from the xswu/HPSv2 hub repo on first use unless a path is given).
    Score = image_features . text_features, as the package computes it (about 0.2-0.35).
    """

    name = "hpsv2"

    def __init__(self, version, checkpoint=None):
        import huggingface_hub
        import torch
        from hpsv2.src.open_clip import create_model_and_transforms, get_tokenizer
        from hpsv2.utils import hps_version_map
        from PIL import Image

        self._torch = torch
        self._image = Image
        self._device = "cuda" if torch.cuda.is_available() else "cpu"
        model, _, preprocess = create_model_and_transforms(
            "ViT-H-14", "laion2B-s32B-b79K", precision="amp", device=self._device, jit=False, output_dict=True
        )
        path = checkpoint or huggingface_hub.hf_hub_download("xswu/HPSv2", hps_version_map[version])
        model.load_state_dict(torch.load(path, map_location=self._device)["state_dict"])
        model.eval()
        self._model = model
        self._preprocess = preprocess
        self._tokenizer = get_tokenizer("ViT-H-14")

    def __call__(self, images, prompts):
        torch = self._torch
        pixels = torch.stack(
            [self._preprocess(self._image.open(io.BytesIO(p)).convert("RGB")) for p in images]
        ).to(self._device)
        text = self._tokenizer(prompts).to(self._device)
        with torch.no_grad(), torch.autocast(device_type=self._device, enabled=self._device == "cuda"):
            out = self._model(pixels, text)
            scores = (out["image_features"] * out["text_features"]).sum(dim=-1)
        return [float(x) for x in scores]


class OpenClipModel:
    """CLIP ViT-L/14 (OpenAI weights via open_clip): cosine of normalised embeddings."""

    name = "open-clip"

    def __init__(self, arch, pretrained):
        import open_clip
        import torch
        from PIL import Image

        self._torch = torch
        self._image = Image
        self._model, _, self._preprocess = open_clip.create_model_and_transforms(arch, pretrained=pretrained)
        self._model.eval()
        self._tokenizer = open_clip.get_tokenizer(arch)

    def __call__(self, images, prompts):
        torch = self._torch
        pixels = torch.stack([self._preprocess(self._image.open(io.BytesIO(p)).convert("RGB")) for p in images])
        with torch.no_grad():
            img = self._model.encode_image(pixels)
            txt = self._model.encode_text(self._tokenizer(prompts))
        img = img / img.norm(dim=-1, keepdim=True)
        txt = txt / txt.norm(dim=-1, keepdim=True)
        return [float(x) for x in (img * txt).sum(dim=-1)]


class LazyModel:
    """Builds the real model on first use, once, even with concurrent requests."""

    def __init__(self, factory, name):
        self._factory = factory
        self._model = None
        self._lock = threading.Lock()
        self.name = name

    def __call__(self, images, prompts):
        with self._lock:
            if self._model is None:
                self._model = self._factory()
            model = self._model
        return model(images, prompts)


class BadRequest(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def parse_request(raw, max_batch):
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise BadRequest(400, f"body is not JSON: {err}")
    if not isinstance(body, dict):
        raise BadRequest(400, "body must be a JSON object")
    images, prompts = body.get("images"), body.get("prompts")
    if not isinstance(images, list) or not isinstance(prompts, list):
        raise BadRequest(400, '"images" and "prompts" must be lists')
    if len(images) != len(prompts):
        raise BadRequest(400, f"{len(images)} images but {len(prompts)} prompts")
    if len(images) > max_batch:
        raise BadRequest(413, f"{len(images)} items; this server takes at most {max_batch} per request")
    if not all(isinstance(p, str) for p in prompts):
        raise BadRequest(400, "every prompt must be a string")
    decoded = []
    for i, b64 in enumerate(images):
        if not isinstance(b64, str):
            raise BadRequest(400, f"image {i} must be a base64 string")
        try:
            decoded.append(base64.b64decode(b64, validate=True))
        except (binascii.Error, ValueError) as err:
            raise BadRequest(400, f"image {i} is not base64: {err}")
    return decoded, prompts


def make_handler(model, max_batch, max_body, quiet):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            if not quiet:
                sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

        def _send(self, status, payload):
            data = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/healthz":
                self._send(200, {"ok": True, "model": model.name, "max_batch": max_batch})
            else:
                self._send(404, {"error": f"no route {self.path}"})

        def do_POST(self):
            if self.path not in ("/score", "/"):
                self._send(404, {"error": f"no route {self.path}"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            if length > max_body:
                self.close_connection = True
                self._send(413, {"error": f"body of {length} bytes is over the {max_body}-byte limit"})
                return
            raw = self.rfile.read(length)
            try:
                images, prompts = parse_request(raw, max_batch)
            except BadRequest as err:
                self._send(err.status, {"error": str(err)})
                return
            try:
                scores = model(images, prompts)
            except Exception as err:  # the model failed: the whole batch is an error value
                self._send(500, {"error": f"{type(err).__name__}: {err}"})
                return
            self._send(200, {"scores": scores})

    return Handler


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8790, help="0 picks a free port (printed on stdout)")
    ap.add_argument("--model", choices=["hpsv2", "open-clip"], default="hpsv2")
    ap.add_argument("--hps-version", default="v2.1", help="v2.0 or v2.1")
    ap.add_argument("--hps-checkpoint", help="local HPS checkpoint (.pt); default: download from xswu/HPSv2")
    ap.add_argument("--clip-arch", default="ViT-L-14")
    ap.add_argument("--clip-pretrained", default="openai")
    ap.add_argument("--stand-in", action="store_true", help="deterministic stand-in model (tests)")
    ap.add_argument("--max-batch", type=int, default=64)
    ap.add_argument("--max-body-mb", type=float, default=64)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    if args.stand_in:
        model = stand_in_scores
        model.name = "stand-in"
    elif args.model == "hpsv2":
        model = LazyModel(lambda: Hpsv2Model(args.hps_version, args.hps_checkpoint), "hpsv2")
    else:
        model = LazyModel(lambda: OpenClipModel(args.clip_arch, args.clip_pretrained), "open-clip")

    handler = make_handler(model, args.max_batch, int(args.max_body_mb * 1024 * 1024), args.quiet)
    server = ThreadingHTTPServer((args.host, args.port), handler)
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"scorer_server listening on http://{host}:{port}/score model={model.name}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
