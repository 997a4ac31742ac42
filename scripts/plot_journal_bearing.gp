# The journal in the bearing (review §5, Figs. 10-12) from a penalty run:
#   stickslip run journal-bearing --set parameters.mu_static=0.15 --set parameters.mu_kinetic=0.1 \
#     --friction brown-mcphee --output-dt 1e-5 --out journal.csv
#   gnuplot scripts/plot_journal_bearing.gp
# Left: the eccentricity orbit (journal centre relative to the bearing's, in units of the
# 0.1 mm clearance; the unit circle is the bearing wall). Right: the normal contact force.
c = 1e-4
set datafile separator ','
set terminal pngcairo size 1400,650
set output 'journal_bearing.png'
set multiplot layout 1,2 title 'journal-bearing (review Table 5), penalty route'
set title 'eccentricity orbit'
set xlabel 'e_x / c'
set ylabel 'e_y / c'
set size ratio -1
set key top left
set parametric
set trange [0:2*pi]
plot 'journal.csv' using (column('journal-bearing.e_x') / c):(column('journal-bearing.e_y') / c) with lines title 'journal centre', \
     cos(t), sin(t) with lines dashtype 2 lc 'black' title 'clearance circle'
unset parametric
set size noratio
set title 'normal contact force'
set xlabel 't [s]'
set ylabel 'F_n [N]'
plot 'journal.csv' using 1:(column('journal-bearing.N')) with lines notitle
unset multiplot
