// The page's script: see the web package.
