#!/bin/sh
# Every citation of the shipped notes resolves: a `source` string or a
# comment that names docs/reference/FILE.md, with section numbers
# ("§1.7", "2", "section 4", "1.7, 6"), names a file that exists and a
# heading of that number in it. One TAP line per cited file and section.
set -u
perl -e '
	use strict;
	my (%seen, @order);
	for my $f (@ARGV) {
		open(my $fh, "<", $f) or next;
		local $/;
		my $t = <$fh>;
		close $fh;
		$t =~ s/\\xc2\\xa7" "/\x{a7}/g;      # "\xc2\xa7" "1" in C strings
		$t =~ s/\xc2\xa7/\x{a7}/g;           # UTF-8 section sign
		while ($t =~ m{docs/reference/([a-z0-9-]+\.md)((?:,?\s*(?:\x{a7}|section\s+)?\d+(?:\.\d+)*)*)}g) {
			my ($file, $secs) = ($1, $2);
			my @s = $secs =~ /(\d+(?:\.\d+)*)/g;
			@s = ("") unless @s;
			for my $s (@s) {
				my $k = "$file $s";
				push @order, $k unless $seen{$k}++;
			}
		}
	}
	my ($n, %heads) = (0);
	for my $k (@order) {
		my ($file, $s) = split / /, $k, 2;
		$n++;
		my $path = "docs/reference/$file";
		if (!-f $path) {
			print "not ok $n - docs/reference/$k: no file $path\n";
			next;
		}
		if (!exists $heads{$file}) {
			open(my $fh, "<", $path) or die;
			$heads{$file} = [ grep { /^#+ / } <$fh> ];
			close $fh;
		}
		if ($s eq "" || grep { /^#+ \Q$s\E(\.|\s)/ } @{ $heads{$file} }) {
			print "ok $n - docs/reference/$k\n";
		} else {
			print "not ok $n - docs/reference/$k: no section $s\n";
		}
	}
	print "not ok 1 - no citation found\n" unless $n;
' $(find data src include -type f \( -name '*.json' -o -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort)
