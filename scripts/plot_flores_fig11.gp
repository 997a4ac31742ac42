# Flores, Leine & Glocker's Fig. 11 from Moreau–Jean:
#   stickslip run flores-translational --method moreau-jean --output-dt 0 --out flores.csv
#   gnuplot scripts/plot_flores_fig11.gp
# The slider's corners, vertical position normalized by the clearance: (y_k − b)/c for the
# upper corners, (y_k + b)/c for the lower ones, so that +1 is an upper corner on the upper
# wall of the guide and −1 a lower corner on the lower wall (a, b, c: the scenario's
# half-length, half-width and clearance, flores_translational.hpp). The two corners of one
# end differ in this measure by b θ²/c < 1e-3 (θ the slider's small tilt), so one curve is
# drawn per end: the upper-left corner's for the left end, the upper-right's for the right.
a = 0.05; b = 0.025; c = 0.001
corner(y, theta, x, z) = y + sin(theta) * x + cos(theta) * z
set datafile separator ','
set terminal pngcairo size 1000,700
set output 'flores_fig11.png'
set title 'flores-translational, Moreau–Jean h = 1e-5 s: slider corners, vertical position / clearance'
set xlabel 't [s]'
set ylabel 'corner position / clearance'
set yrange [-1.4:1.4]
set key outside right
plot 'flores.csv' using 1:((corner(column('slider.y'), column('slider.theta'), -a, b) - b) / c) with lines title 'left end', \
     '' using 1:((corner(column('slider.y'), column('slider.theta'), a, b) - b) / c) with lines title 'right end', \
     1 with lines dashtype 2 lc 'black' notitle, -1 with lines dashtype 2 lc 'black' notitle
