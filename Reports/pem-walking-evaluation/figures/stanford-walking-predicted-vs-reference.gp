# EnergyLab chart: Models against stanford-walking (every cell)
# Edit and run with: gnuplot stanford-walking-predicted-vs-reference.gp
set encoding utf8
set title 'Models against stanford-walking (every cell)' noenhanced
set xlabel 'reference energy (kcal)' noenhanced
set ylabel 'predicted energy (kcal)' noenhanced
set key above box noenhanced
set grid lc rgb '#dddddd'
set border 3
set tics nomirror
set style line 1 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 2 lc rgb '#d1495b' pt 5 ps 0.7 lw 2
set style line 3 lc rgb '#2e933c' pt 9 ps 0.8 lw 2
set style line 4 lc rgb '#edae49' pt 11 ps 0.8 lw 2
set style line 5 lc rgb '#66468c' pt 13 ps 0.8 lw 2
set style line 6 lc rgb '#00798c' pt 15 ps 0.8 lw 2
set style line 7 lc rgb '#8c510a' pt 4 ps 0.8 lw 2
set style line 10 lc rgb '#333333' dt 1 lw 1.5
set style line 11 lc rgb '#777777' dt 2 lw 1.5
set style line 12 lc rgb '#b2182b' dt 4 lw 1.5
set style line 13 lc rgb '#2166ac' dt 5 lw 1.5
set style line 14 lc rgb '#8c510a' dt 3 lw 2
set style line 15 lc rgb '#66468c' dt 6 lw 2
set style line 20 lc rgb '#999999' dt 3 lw 1.5
set style line 40 lc rgb '#2e933c' pt 7 ps 0.7 lw 2
set style line 41 lc rgb '#66468c' pt 7 ps 0.7 lw 2
set style line 42 lc rgb '#edae49' pt 7 ps 0.7 lw 2
set style line 43 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
set style line 44 lc rgb '#d1495b' pt 7 ps 0.7 lw 2
set style line 45 lc rgb '#00798c' pt 7 ps 0.7 lw 2
set style line 46 lc rgb '#333333' pt 7 ps 0.7 lw 2
set style line 47 lc rgb '#8c510a' pt 7 ps 0.7 lw 2
set style line 48 lc rgb '#a6a6a6' pt 7 ps 0.7 lw 2
set terminal pngcairo size 900,560 enhanced font 'Sans,11'
set output 'stanford-walking-predicted-vs-reference.png'
plot 'stanford-walking-predicted-vs-reference.dat' index 0 using 1:2 with points ls 1 title 'acsm-walking (under met: every cell within 2 % of the scale, about a marker)', \
     'stanford-walking-predicted-vs-reference.dat' index 1 using 1:2 with points ls 2 title 'cameron-walking (under met: every cell within 2 % of the scale, about a marker)', \
     'stanford-walking-predicted-vs-reference.dat' index 2 using 1:2 with points ls 3 title 'met', \
     x with lines ls 20 title 'y = x'
set terminal svg size 900,560 dynamic font 'Sans,11'
set output 'stanford-walking-predicted-vs-reference.svg'
replot
unset output
