"""``boardsolve serve``: a local correction page and the JSON API behind it.

Needs the ``serve`` extra (Starlette and uvicorn): ``pip install '.[serve]'``.
``app.create_app`` builds the web application, ``app.run_server`` runs it;
``limits`` holds the upload limits checked before any image is decoded.
"""
