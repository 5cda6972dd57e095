package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"

	"alak/gtp"
	"alak/player"
	"alak/session"
)

func init() {
	register(command{name: "gtp", summary: "speak the Go Text Protocol on standard input and output (for GUIs and arenas)", run: gtpRun})
}

const gtpUsage = `usage: alak gtp [--rules R] [--size N] [--OPTION VALUE ...] [--player SPEC] [--seed N]
Reads GTP commands on standard input and answers on standard output; docs/gtp.md lists the commands.`

// gtpRun is `alak gtp`: a GTP engine on stdin and stdout, its computer
// player chosen by --player. docs/gtp.md describes the commands.
func gtpRun(e *env, args []string) int {
	fs := newFlagSet(e, "gtp", gtpUsage)
	getRules := rulesFlags(fs)
	spec := fs.String("player", "greedy", "the player genmove uses: "+strings.Join(player.Names(), ", ")+", or gtp:COMMAND for an external engine")
	seed := fs.Uint64("seed", 0, "seed of the player's randomness (default: a new seed each run)")
	if err := fs.Parse(args); err != nil {
		return flagStatus(e, fs, err)
	}
	if fs.NArg() > 0 {
		return fail(e, "gtp", fmt.Errorf("unexpected argument %q: the engine reads its commands on standard input", fs.Arg(0)))
	}
	r, err := getRules()
	if err != nil {
		return fail(e, "gtp", err)
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	if !seedSet {
		*seed = rand.Uint64()
	}
	p, err := player.New(*spec, *seed)
	if err != nil {
		return fail(e, "gtp", err)
	}
	g, err := session.Setup{Rules: r}.Game()
	if err != nil {
		p.Close()
		return fail(e, "gtp", err)
	}
	var opt session.Options
	seat := session.Seat{Player: p}
	eng := gtp.NewSessionEngine(session.New(g, seat, seat, opt), opt)
	err = eng.Run(context.Background(), e.stdin, e.stdout)
	if cerr := eng.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(e, "gtp", err)
	}
	return 0
}
