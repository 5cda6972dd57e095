#!/usr/bin/perl
# A small GTP engine in Perl for alak bot's tests: an engine written by
# nobody who wrote alak's Go, in another language, speaking plain GTP (it
# does not know alak-rules). It plays the alak preset on a line
# (rectangular_boardsize N 1): a stone never dies, an opponent's run
# flanked by the mover's stones or by an end of the line is captured, and
# the points just captured are forbidden to their owner for one move. Its
# genmove takes the move that captures most, the lowest point among equals.
#
#   perl engine.pl [--hang-size N] [--log FILE]
#
# --hang-size N: on a line of N points, genmove is never answered (the
# engine sleeps) once two moves are on the record, to test a hung engine:
# its first move is played, so its clock runs. --log FILE: the engine's
# process id ("pid N") and every command received are appended to FILE.
use strict;
use warnings;

$| = 1;
my ($hang, $logfile) = (0, undef);
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--hang-size') { $hang = shift @ARGV }
    elsif ($a eq '--log') { $logfile = shift @ARGV }
    else { die "engine.pl: unknown argument $a\n" }
}
my $log;
if (defined $logfile) {
    open($log, '>>', $logfile) or die "engine.pl: $logfile: $!\n";
    my $old = select($log); $| = 1; select($old);
    print $log "pid $$\n";
}

my @columns = ('A' .. 'H', 'J' .. 'Z');
my $size = 11;
my @board;       # '.', 'b' or 'w' for each point
my %forbidden;   # point => colour that may not play there next
my $moves = 0;   # moves on the record since clear_board
my %commands = map { $_ => 1 } qw(protocol_version name version known_command list_commands
  quit boardsize rectangular_boardsize komi clear_board play genmove time_left);

sub clear { @board = ('.') x $size; %forbidden = (); $moves = 0 }
clear();

sub vertex { my ($p) = @_; return $columns[$p] . '1' }

sub point {
    my ($v) = @_;
    return undef unless $v =~ /^([A-Za-z])1$/;
    my $c = uc $1;
    for my $i (0 .. $#columns) { return $i if $columns[$i] eq $c && $i < $size }
    return undef;
}

sub other { return $_[0] eq 'b' ? 'w' : 'b' }

# captures: the points an opponent loses when $c places at $p.
sub captures {
    my ($c, $p) = @_;
    my $o = other($c);
    my @taken;
    for my $d (-1, 1) {
        my @run;
        my $q = $p + $d;
        while ($q >= 0 && $q < $size && $board[$q] eq $o) { push @run, $q; $q += $d }
        next unless @run;
        my $closed = ($q < 0 || $q >= $size) || $board[$q] eq $c;
        push @taken, @run if $closed;
    }
    return @taken;
}

sub legal {
    my ($c, $p) = @_;
    return 0 if $p < 0 || $p >= $size || $board[$p] ne '.';
    return 0 if defined $forbidden{$p} && $forbidden{$p} eq $c;
    return 1;
}

sub place {
    my ($c, $p) = @_;
    my @taken = captures($c, $p);
    $board[$p] = $c;
    $board[$_] = '.' for @taken;
    %forbidden = map { $_ => other($c) } @taken;
    $moves++;
}

sub colour {
    my ($w) = @_;
    return 'b' if defined $w && $w =~ /^(b|black)$/i;
    return 'w' if defined $w && $w =~ /^(w|white)$/i;
    return undef;
}

while (my $line = <STDIN>) {
    print $log $line if $log;
    $line =~ s/#.*//;
    $line =~ s/[\r\n]//g;
    next unless $line =~ /\S/;
    my @w = split ' ', $line;
    my $id = $w[0] =~ /^\d+$/ ? shift @w : '';
    my $cmd = lc(shift(@w) // '');
    my ($ok, $out) = (1, '');
    if ($cmd eq 'protocol_version') { $out = '2' }
    elsif ($cmd eq 'name') { $out = 'perl-alak' }
    elsif ($cmd eq 'version') { $out = '1' }
    elsif ($cmd eq 'known_command') { $out = ($commands{lc($w[0] // '')} ? 'true' : 'false') }
    elsif ($cmd eq 'list_commands') { $out = join("\n", sort keys %commands) }
    elsif ($cmd eq 'quit') { print "=$id\n\n"; last }
    elsif ($cmd eq 'boardsize' || $cmd eq 'rectangular_boardsize') {
        my ($n, $h) = @w;
        if (defined $n && $n =~ /^\d+$/ && $n >= 2 && $n <= @columns && (!defined $h || $h eq '1')) { $size = $n; clear() }
        else { ($ok, $out) = (0, 'unacceptable size') }
    }
    elsif ($cmd eq 'komi' || $cmd eq 'time_left') { }
    elsif ($cmd eq 'clear_board') { clear() }
    elsif ($cmd eq 'play') {
        my $c = colour($w[0]);
        my $p = point($w[1] // '');
        if (!defined $c) { ($ok, $out) = (0, 'syntax error') }
        elsif (lc($w[1] // '') eq 'pass') { %forbidden = (); $moves++ }
        elsif (!defined $p || !legal($c, $p)) { ($ok, $out) = (0, 'illegal move') }
        else { place($c, $p) }
    }
    elsif ($cmd eq 'genmove') {
        my $c = colour($w[0]);
        if (!defined $c) { ($ok, $out) = (0, 'syntax error') }
        else {
            sleep 3600 if $hang && $size == $hang && $moves >= 2;
            my ($best, $most) = (undef, -1);
            for my $p (0 .. $size - 1) {
                next unless legal($c, $p);
                my $n = scalar captures($c, $p);
                ($best, $most) = ($p, $n) if $n > $most;
            }
            if (defined $best) { place($c, $best); $out = vertex($best) }
            else { $out = 'pass' }
        }
    }
    else { ($ok, $out) = (0, 'unknown command') }
    print(($ok ? '=' : '?') . $id . ($out ne '' ? " $out" : '') . "\n\n");
}
