# A package, so that plain `python3 -m unittest` run in integrations/python finds these tests.
